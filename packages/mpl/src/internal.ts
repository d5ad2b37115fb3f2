// What sibling packages (@mtpx/mpl-proxy, @mtpx/postgres, @mtpx/inspector) need from
// @mtpx/mpl but users do not: `@mtpx/mpl/internal`. Each export is tagged `@internal`.
export {
  type ProvenanceRow,
  provenanceEntryColumns,
  provenanceEntryOf,
  provenancePlanKey,
  provenanceRowColumns,
  provenanceRowOf,
} from './provenance-row';
