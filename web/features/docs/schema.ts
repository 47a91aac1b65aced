/**
 * The API reference reads the OpenAPI document the server generates from the contract; these turn its JSON
 * Schemas into the rows a reader scans: one per field, nested fields with dotted names.
 */
export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  additionalProperties?: boolean | JsonSchema;
  description?: string;
  $ref?: string;
};

export interface FieldRow {
  name: string;
  type: string;
  required: boolean;
  rules: string;
}

const SAFE_MAX = Number.MAX_SAFE_INTEGER;

/** The variants of a schema once `null` is taken out, and whether null is allowed. */
function variants(schema: JsonSchema): { options: JsonSchema[]; nullable: boolean } {
  const list = schema.anyOf ?? schema.oneOf;
  if (!list) {
    if (Array.isArray(schema.type) && schema.type.includes('null'))
      return {
        options: [{ ...schema, type: schema.type.filter((t) => t !== 'null') }],
        nullable: true,
      };
    return { options: [schema], nullable: false };
  }
  const options = list.filter((s) => s.type !== 'null');
  return { options, nullable: options.length < list.length };
}

/** A type as a reader says it: "integer", "array of string", "Pass | Fail", "string or null". */
export function typeText(schema: JsonSchema): string {
  const { options, nullable } = variants(schema);
  const text = options
    .map((s) => {
      if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
      if (s.const !== undefined) return JSON.stringify(s.const);
      const type = Array.isArray(s.type) ? s.type.join(' | ') : s.type;
      if (type === 'array') return `array of ${s.items ? typeText(s.items) : 'any'}`;
      if (type === 'string' && s.format === 'date-time') return 'date-time (ISO 8601)';
      return type ?? 'any';
    })
    .join(' or ');
  return nullable ? `${text} or null` : text;
}

function rulesOf(schema: JsonSchema): string {
  const s = variants(schema).options[0] ?? schema;
  const rules: string[] = [];
  if (s.minLength !== undefined && s.maxLength !== undefined)
    rules.push(`${s.minLength}-${s.maxLength} characters`);
  else if (s.maxLength !== undefined) rules.push(`at most ${s.maxLength} characters`);
  else if (s.minLength !== undefined) rules.push(`at least ${s.minLength} characters`);
  if (s.exclusiveMinimum !== undefined) rules.push(`> ${s.exclusiveMinimum}`);
  if (s.minimum !== undefined && s.minimum > -SAFE_MAX) rules.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined && s.maximum < SAFE_MAX) rules.push(`≤ ${s.maximum}`);
  if (s.exclusiveMaximum !== undefined) rules.push(`< ${s.exclusiveMaximum}`);
  if (s.maxItems !== undefined) rules.push(`at most ${s.maxItems} entries`);
  if (s.minItems) rules.push(`at least ${s.minItems} entries`);
  if (s.format && s.format !== 'date-time') rules.push(s.format);
  const said = schema.description ?? s.description;
  if (said) rules.push(said);
  return rules.join(', ');
}

/** Every field of an object schema, depth first; an array of objects lists its entries' fields as `name[].x`. */
export function fieldsOf(schema: JsonSchema, prefix = ''): FieldRow[] {
  const object = variants(schema).options.find((s) => s.properties) ?? schema;
  const required = new Set(object.required ?? []);
  const rows: FieldRow[] = [];
  for (const [key, field] of Object.entries(object.properties ?? {})) {
    const name = prefix + key;
    rows.push({ name, type: typeText(field), required: required.has(key), rules: rulesOf(field) });
    const inner = variants(field).options[0];
    if (inner?.properties) rows.push(...fieldsOf(inner, `${name}.`));
    else if (inner?.items && variants(inner.items).options.some((s) => s.properties))
      rows.push(...fieldsOf(inner.items, `${name}[].`));
  }
  return rows;
}
