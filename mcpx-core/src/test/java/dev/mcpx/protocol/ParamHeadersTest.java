package dev.mcpx.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import dev.mcpx.protocol.ParamHeaders.InvalidParamHeaderException;
import dev.mcpx.protocol.ParamHeaders.Param;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

class ParamHeadersTest {

    private static JsonNode json(String text) {
        return Json.parse(text.replace('\'', '"'));
    }

    @Test
    void mirrorsTheSpecExample() {
        ParamHeaders headers = ParamHeaders.of(json("""
                {'type': 'object', 'properties': {
                  'region': {'type': 'string', 'x-mcp-header': 'Region'},
                  'query': {'type': 'string'}}, 'required': ['region', 'query']}"""));

        assertThat(headers.params()).containsExactly(new Param("Region", List.of("region")));
        assertThat(headers.headersFor(json("{'region': 'us-west1', 'query': 'SELECT 1'}")))
                .containsExactly(entry("Mcp-Param-Region", "us-west1"));
    }

    @Test
    void convertsIntegersBooleansAndNestedValuesAndEncodesUnsafeOnes() {
        ParamHeaders headers = ParamHeaders.of(json("""
                {'type': 'object', 'properties': {
                  'count': {'type': 'integer', 'x-mcp-header': 'Count'},
                  'dry': {'type': 'boolean', 'x-mcp-header': 'Dry-Run'},
                  'target': {'type': 'object', 'properties': {
                     'zone': {'type': ['string', 'null'], 'x-mcp-header': 'Zone'}}}}}"""));

        assertThat(headers.headersFor(json("{'count': -7, 'dry': false, 'target': {'zone': 'Zürich'}}")))
                .containsExactly(entry("Mcp-Param-Count", "-7"), entry("Mcp-Param-Dry-Run", "false"),
                        entry("Mcp-Param-Zone", HeaderValues.encode("Zürich")));
        assertThat(headers.headersFor(json("{'count': 42.0}"))).containsExactly(entry("Mcp-Param-Count", "42"));
    }

    @Test
    void sendsNoHeaderForAbsentOrNullValues() {
        ParamHeaders headers = ParamHeaders.of(json("""
                {'type': 'object', 'properties': {
                  'region': {'type': 'string', 'x-mcp-header': 'Region'},
                  'target': {'type': 'object', 'properties': {'zone': {'type': 'string', 'x-mcp-header': 'Zone'}}}}}"""));

        assertThat(headers.headersFor(json("{'region': null, 'target': null}"))).isEmpty();
        assertThat(headers.headersFor(json("{'target': 'not an object'}"))).isEmpty();
        assertThat(headers.headersFor(json("{}"))).isEmpty();
        assertThat(headers.headersFor(null)).isEmpty();
    }

    @Test
    void integersOutsideTheSafeRangeAreRefused() {
        ParamHeaders headers = ParamHeaders.of(json("{'properties': {'n': {'type': 'integer', 'x-mcp-header': 'N'}}}"));

        assertThat(headers.headersFor(json("{'n': 9007199254740991}"))).containsExactly(entry("Mcp-Param-N", "9007199254740991"));
        assertThat(headers.headersFor(json("{'n': -9007199254740991}"))).containsExactly(entry("Mcp-Param-N", "-9007199254740991"));
        headers.requireSafeIntegers(json("{'n': -9007199254740991}"));
        assertThatThrownBy(() -> headers.requireSafeIntegers(json("{'n': 9007199254740992}")))
                .isInstanceOf(ParamHeaders.UnsafeIntegerException.class).hasMessageContaining("safe integer range");
        assertThatThrownBy(() -> headers.requireSafeIntegers(json("{'n': -1e300}")))
                .isInstanceOf(ParamHeaders.UnsafeIntegerException.class);
        assertThat(headers.headersFor(json("{'n': 9007199254740993}")))
                .as("a server validating headers still mirrors what it is given")
                .containsExactly(entry("Mcp-Param-N", "9007199254740993"));
    }

    @Test
    void schemasWithoutAnnotationsHaveNone() {
        assertThat(ParamHeaders.of(null).isEmpty()).isTrue();
        assertThat(ParamHeaders.of(json("{'type': 'object'}")).isEmpty()).isTrue();
    }

    @Test
    void aParameterNamedLikeTheAnnotationIsJustAParameter() {
        ParamHeaders headers = ParamHeaders.of(json("""
                {'type': 'object', 'properties': {'x-mcp-header': {'type': 'object'}},
                 'default': {'x-mcp-header': 'NotAnAnnotation'}}"""));

        assertThat(headers.isEmpty()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{'properties': {'a': {'type': 'number', 'x-mcp-header': 'A'}}}",
            "{'properties': {'a': {'type': 'object', 'x-mcp-header': 'A'}}}",
            "{'properties': {'a': {'x-mcp-header': 'A'}}}",
            "{'properties': {'a': {'type': ['string', 'integer'], 'x-mcp-header': 'A'}}}",
            "{'properties': {'a': {'type': 'string', 'x-mcp-header': ''}}}",
            "{'properties': {'a': {'type': 'string', 'x-mcp-header': 'Has Space'}}}",
            "{'properties': {'a': {'type': 'string', 'x-mcp-header': 'Line\\r\\nBreak'}}}",
            "{'properties': {'a': {'type': 'string', 'x-mcp-header': 'Ünicode'}}}",
            "{'properties': {'a': {'type': 'string', 'x-mcp-header': 7}}}",
            "{'properties': {'a': {'type': 'string', 'x-mcp-header': 'Dup'}, 'b': {'type': 'string', 'x-mcp-header': 'dUP'}}}",
            "{'properties': {'a': {'type': 'array', 'items': {'type': 'string', 'x-mcp-header': 'A'}}}}",
            "{'properties': {'a': {'oneOf': [{'type': 'string', 'x-mcp-header': 'A'}]}}}",
            "{'allOf': [{'properties': {'a': {'type': 'string', 'x-mcp-header': 'A'}}}]}",
            "{'if': {'properties': {'a': {'type': 'string', 'x-mcp-header': 'A'}}}}",
            "{'$defs': {'d': {'type': 'string', 'x-mcp-header': 'A'}}, 'properties': {'a': {'$ref': '#/$defs/d'}}}",
            "{'properties': {'a': {'not': {'type': 'string', 'x-mcp-header': 'A'}}}}",
            "{'patternProperties': {'^a': {'type': 'string', 'x-mcp-header': 'A'}}}",
            "{'additionalProperties': {'type': 'string', 'x-mcp-header': 'A'}}",
            "{'type': 'object', 'x-mcp-header': 'Root'}"
    })
    void rejectsAnnotationsThatBreakTheRules(String schema) {
        assertThatThrownBy(() -> ParamHeaders.of(json(schema)))
                .isInstanceOf(InvalidParamHeaderException.class)
                .hasMessageContaining("x-mcp-header");
    }

    @Test
    void theReasonNamesTheProperty() {
        assertThatThrownBy(() -> ParamHeaders.of(json(
                "{'properties': {'outer': {'properties': {'inner': {'type': 'number', 'x-mcp-header': 'N'}}}}}")))
                .hasMessageContaining("outer.inner")
                .hasMessageContaining("string, integer or boolean");
    }
}
