import { z } from "zod";

// The fields of a zod schema, read from its definition: the string fields with their key and
// maximum length (tests/integration/schema-column-sizes.test.ts compares them with the columns),
// and every field path (tests/integration/bad-input.test.ts fills them with bad values).

export interface StringLeaf {
  path: string;
  key: string;
  max: number | undefined;
}

type Def = { type: string; [k: string]: unknown };
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

export function stringLeaves(schema: z.ZodType, path: string[] = [], seen = new Set<z.ZodType>()): StringLeaf[] {
  const def = defOf(schema);
  const here = (s: z.ZodType, p = path) => stringLeaves(s, p, seen);
  switch (def.type) {
    case "string": {
      const max = (schema as unknown as { maxLength: number | null }).maxLength ?? undefined;
      return [{ path: path.join("."), key: path[path.length - 1] ?? "", max }];
    }
    case "object": {
      const shape = def.shape as Record<string, z.ZodType>;
      return Object.entries(shape).flatMap(([k, v]) => here(v, [...path, k]));
    }
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "catch":
    case "readonly":
    case "nonoptional":
      return here(def.innerType as z.ZodType);
    case "pipe":
      return [...here(def.in as z.ZodType), ...here(def.out as z.ZodType)];
    case "union":
      return (def.options as z.ZodType[]).flatMap((o) => here(o));
    case "intersection":
      return [...here(def.left as z.ZodType), ...here(def.right as z.ZodType)];
    case "array":
      return here(def.element as z.ZodType, [...path, "[]"]);
    case "record":
      return here(def.valueType as z.ZodType, [...path, "*"]);
    case "lazy": {
      // A recursive schema is walked once.
      if (seen.has(schema)) return [];
      seen.add(schema);
      return here((def.getter as () => z.ZodType)());
    }
    default:
      return [];
  }
}

/** Every field path of a schema (objects, arrays as "[]", records as "*"), for generated payloads. */
export function schemaPaths(schema: z.ZodType, path: string[] = [], seen = new Set<z.ZodType>()): string[] {
  const def = defOf(schema);
  const here = (s: z.ZodType, p = path) => schemaPaths(s, p, seen);
  switch (def.type) {
    case "object": {
      const shape = def.shape as Record<string, z.ZodType>;
      return Object.entries(shape).flatMap(([k, v]) => [[...path, k].join("."), ...here(v, [...path, k])]);
    }
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "catch":
    case "readonly":
    case "nonoptional":
      return here(def.innerType as z.ZodType);
    case "pipe":
      return [...here(def.in as z.ZodType), ...here(def.out as z.ZodType)];
    case "union":
      return (def.options as z.ZodType[]).flatMap((o) => here(o));
    case "intersection":
      return [...here(def.left as z.ZodType), ...here(def.right as z.ZodType)];
    case "array":
      return here(def.element as z.ZodType, [...path, "[]"]);
    case "record":
      return here(def.valueType as z.ZodType, [...path, "*"]);
    case "lazy": {
      if (seen.has(schema)) return [];
      seen.add(schema);
      return here((def.getter as () => z.ZodType)());
    }
    default:
      return [];
  }
}
