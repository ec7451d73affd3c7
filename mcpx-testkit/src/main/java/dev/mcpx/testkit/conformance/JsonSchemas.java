package dev.mcpx.testkit.conformance;

import tools.jackson.databind.node.ObjectNode;

/** Input schemas that exercise what a client or gateway must pass through untouched. */
final class JsonSchemas {

    private JsonSchemas() {
    }

    /** SEP-1613 and SEP-2106: $schema, $defs with $anchor, $ref, allOf/anyOf, if/then/else, additionalProperties. */
    static ObjectNode draft202012() {
        return (ObjectNode) Json.parse("""
                {
                  "$schema": "https://json-schema.org/draft/2020-12/schema",
                  "type": "object",
                  "$defs": {
                    "address": {
                      "$anchor": "addressDef",
                      "type": "object",
                      "properties": {"street": {"type": "string"}, "city": {"type": "string"}}
                    }
                  },
                  "properties": {
                    "name": {"type": "string"},
                    "address": {"$ref": "#/$defs/address"},
                    "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                    "phone": {"type": "string"},
                    "email": {"type": "string"}
                  },
                  "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
                  "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
                  "then": {"required": ["phone"]},
                  "else": {"required": ["email"]},
                  "additionalProperties": false
                }
                """);
    }

    /** SEP-2243: a string parameter mirrored into the Mcp-Param-Region header. */
    static ObjectNode withHeaderParameter() {
        return (ObjectNode) Json.parse("""
                {
                  "type": "object",
                  "properties": {
                    "region": {"type": "string", "description": "Where to run", "x-mcp-header": "Region"},
                    "query": {"type": "string", "description": "Not mirrored into a header"}
                  },
                  "required": ["region"]
                }
                """);
    }

    /** slow_compute: how long to work, and a label for the result. */
    static ObjectNode slowCompute() {
        return (ObjectNode) Json.parse("""
                {
                  "type": "object",
                  "properties": {
                    "seconds": {"type": "integer", "minimum": 0, "description": "How long to work"},
                    "label": {"type": "string", "description": "Named in the result"}
                  }
                }
                """);
    }
}
