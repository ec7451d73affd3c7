package dev.mcpx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class ExampleArgumentsTest {

    @Test
    void fillsRequiredPropertiesOnlyPreferringWhatTheSchemaGives() {
        ObjectNode schema = (ObjectNode) Json.parse("""
                {"type": "object", "properties": {
                  "a": {"type": "number"}, "n": {"type": "integer"}, "flag": {"type": "boolean"},
                  "region": {"type": "string", "default": "eu"}, "mode": {"enum": ["fast", "slow"]},
                  "fixed": {"const": 7}, "nested": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]},
                  "optional": {"type": "string"}},
                 "required": ["a", "n", "flag", "region", "mode", "fixed", "nested"]}""");

        assertThat(Json.write(ExampleArguments.forSchema(schema))).isEqualTo(
                "{\"a\":1.5,\"n\":1,\"flag\":true,\"region\":\"eu\",\"mode\":\"fast\",\"fixed\":7,\"nested\":{\"x\":\"example\"}}");
    }

    @Test
    void noSchemaMeansNoArguments() {
        assertThat(ExampleArguments.forSchema(null)).isEmpty();
    }
}
