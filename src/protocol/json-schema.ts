// The JSON Schema subset tools declare their input with (sent to the model as is).

export interface JsonSchema {
  type: "object";
  properties: Record<string, { type: string; description?: string; items?: unknown; enum?: string[] }>;
  required?: string[];
  additionalProperties?: boolean;
}
