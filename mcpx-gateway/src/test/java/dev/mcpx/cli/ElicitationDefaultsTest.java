package dev.mcpx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class ElicitationDefaultsTest {

    private static ObjectNode params(String json) {
        return (ObjectNode) Json.parse(json);
    }

    @Test
    void acceptsWithEveryDefaultInItsOwnType() {
        ObjectNode answer = ElicitationDefaults.answer(params("""
                {"message": "please accept", "requestedSchema": {"type": "object", "properties": {
                  "name": {"type": "string", "default": "John Doe"},
                  "age": {"type": "integer", "default": 30},
                  "score": {"type": "number", "default": 95.5},
                  "status": {"type": "string", "enum": ["active", "inactive"], "default": "active"},
                  "verified": {"type": "boolean", "default": true},
                  "note": {"type": "string"}}, "required": []}}"""));

        assertThat(answer.path("action").asString()).isEqualTo("accept");
        assertThat(Json.write(answer.path("content")))
                .isEqualTo("{\"name\":\"John Doe\",\"age\":30,\"score\":95.5,\"status\":\"active\",\"verified\":true}");
    }

    @Test
    void declinesWhenARequiredFieldHasNoDefault() {
        ObjectNode answer = ElicitationDefaults.answer(params("""
                {"message": "who are you", "requestedSchema": {"type": "object", "properties": {
                  "name": {"type": "string"}, "age": {"type": "integer", "default": 30}}, "required": ["name"]}}"""));

        assertThat(Json.write(answer)).isEqualTo("{\"action\":\"decline\"}");
    }

    @Test
    void declinesUrlModeBecauseNobodyCanOpenTheLink() {
        ObjectNode answer = ElicitationDefaults.answer(params("""
                {"mode": "url", "message": "sign in", "url": "https://example.com/login", "elicitationId": "e1"}"""));

        assertThat(answer.path("action").asString()).isEqualTo("decline");
    }

    @Test
    void acceptsAnOptionalOnlyFormWithNoDefaultsAsEmptyContent() {
        ObjectNode answer = ElicitationDefaults.answer(params("""
                {"message": "confirm?", "requestedSchema": {"type": "object", "properties": {"confirmed": {"type": "boolean"}}}}"""));

        assertThat(Json.write(answer)).isEqualTo("{\"action\":\"accept\",\"content\":{}}");
    }
}
