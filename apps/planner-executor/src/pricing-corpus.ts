/** One document the offline search can find. */
export interface CorpusDocument {
  documentId: string;
  title: string;
  url: string;
  chunk: string;
}

/**
 * The pages the offline `web_search` searches: three competitors' pricing pages (prices
 * written as `Plan $N/month`, which `data_extract` reads) and two pages that are not
 * about pricing, so relevance scoring has something to leave out.
 */
export const PRICING_CORPUS: readonly CorpusDocument[] = [
  {
    documentId: 'pricing-page-001',
    title: 'Acme Corp',
    url: 'https://acme.example/pricing',
    chunk:
      'Acme Corp pricing: plans start with Team at $49/month; Business at $149/month adds SSO and audit logs.',
  },
  {
    documentId: 'pricing-page-002',
    title: 'Beta Inc',
    url: 'https://beta.example/pricing',
    chunk:
      'Beta Inc pricing for SaaS teams: Starter $29/month, Pro $99/month, Enterprise $199/month.',
  },
  {
    documentId: 'pricing-page-003',
    title: 'Gamma Cloud',
    url: 'https://gamma.example/plans',
    chunk:
      'Gamma Cloud competitor pricing: Basic at $39/month for small teams and Scale at $129/month.',
  },
  {
    documentId: 'blog-004',
    title: 'Acme Corp engineering blog',
    url: 'https://acme.example/blog/queues',
    chunk: 'How we rebuilt our job queue on Postgres and cut p99 latency in half.',
  },
  {
    documentId: 'careers-005',
    title: 'Beta Inc careers',
    url: 'https://beta.example/careers',
    chunk: 'Beta Inc is hiring engineers in Lisbon and Berlin.',
  },
];
