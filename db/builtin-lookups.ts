// Built-in (organisation-less) lookups. Their names are translated in locales/*/lookups.json;
// the English name stored here is what exports fall back to.
// Wood types 1-10 are the European species the product started with; 1001-1004 are the
// plantation species of South-American pulp mills.

export const BUILTIN_WOOD_TYPES: ReadonlyArray<{
  id: number;
  name: string;
  species: "pine" | "spruce" | "birch" | "broadleaf" | "conifer";
}> = [
  { id: 1, name: "Pine", species: "pine" },
  { id: 2, name: "Spruce", species: "spruce" },
  { id: 3, name: "Birch", species: "birch" },
  { id: 4, name: "Aspen", species: "broadleaf" },
  { id: 5, name: "Black alder", species: "broadleaf" },
  { id: 6, name: "Grey alder", species: "broadleaf" },
  { id: 7, name: "Oak", species: "broadleaf" },
  { id: 8, name: "Ash", species: "broadleaf" },
  { id: 9, name: "Larch", species: "conifer" },
  { id: 10, name: "Mixed softwood", species: "conifer" },
  { id: 1001, name: "Eucalyptus globulus", species: "broadleaf" },
  { id: 1002, name: "Eucalyptus nitens", species: "broadleaf" },
  { id: 1003, name: "Radiata pine", species: "pine" },
  { id: 1004, name: "Acacia", species: "broadleaf" },
];

export const BUILTIN_WOOD_QUALITIES: ReadonlyArray<{ id: number; name: string }> = [
  { id: 1, name: "A" },
  { id: 2, name: "B" },
  { id: 3, name: "C" },
  { id: 4, name: "Pulpwood" },
  { id: 5, name: "Firewood" },
];
