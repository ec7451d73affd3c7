package dev.mcpx.cli;

import dev.mcpx.protocol.Json;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * How the conformance client answers a form-mode {@code elicitation/create} without a person:
 * accept with the value each field of the requested schema declares as its {@code default}
 * (SEP-1034). When a required
 * field has no default, or the request is not a form (URL mode), nobody can answer it, so the
 * answer is {@code decline} rather than made-up content.
 */
final class ElicitationDefaults {

    private ElicitationDefaults() {
    }

    /** The {@code ElicitResult} for the params of one {@code elicitation/create}. */
    static ObjectNode answer(ObjectNode params) {
        String mode = Json.text(params, "mode");
        ObjectNode schema = Json.objectAt(params, "requestedSchema");
        if ((mode != null && !mode.equals("form")) || schema == null) {
            return Json.object().put("action", "decline");
        }
        ObjectNode content = Json.object();
        ObjectNode properties = Json.objectAt(schema, "properties");
        if (properties != null) {
            for (Map.Entry<String, JsonNode> property : properties.properties()) {
                JsonNode value = property.getValue().get("default");
                if (value != null && !value.isNull()) {
                    content.set(property.getKey(), value.deepCopy());
                }
            }
        }
        if (!requiredFields(schema).stream().allMatch(content::has)) {
            return Json.object().put("action", "decline");
        }
        ObjectNode result = Json.object().put("action", "accept");
        result.set("content", content);
        return result;
    }

    private static Set<String> requiredFields(ObjectNode schema) {
        Set<String> required = new HashSet<>();
        schema.path("required").forEach(name -> {
            if (name.isString()) {
                required.add(name.asString());
            }
        });
        return required;
    }
}
