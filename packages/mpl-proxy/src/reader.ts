// `@mtpx/mpl-proxy/reader`: a proxy's recorded provenance, read-only, for tools such as the
// Inspector that show a proxy's data folder without running it.
export { openProvenanceReader, type ProvenanceReader } from './store/provenance-reader';
