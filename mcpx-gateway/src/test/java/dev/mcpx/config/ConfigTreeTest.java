package dev.mcpx.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The config's tree, read by Jackson's parser alone, is the tree and the refusal a strict mapper gives. */
class ConfigTreeTest {

    private static final JsonMapper STRICT = JsonMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    /** Pieces of JSON, valid and not, so that joined they make every kind of text near a config. */
    private static final List<String> PIECES = List.of("{", "}", "[", "]", ",", ":", " ", "\n", "\"command\"", "\"args\"",
            "\"a\"", "\"\\u00e9\\n\"", "\"\\q\"", "\"", "0", "-1", "2147483648", "9223372036854775808", "1.5", "1e400", "-0.0",
            "01", "1.", "true", "false", "null", "nul", "NaN", "// c", "'x'", "\u00e9");

    @Property(tries = 3000)
    void anyTextReadsAsAStrictMapperReadsIt(@ForAll("nearJson") String text) {
        assertSameAsMapper(text);
    }

    @Property(tries = 500)
    void anyTreeWrittenReadsBackEqual(@ForAll("trees") String text) {
        assertThat(ConfigTree.read(text)).isEqualTo(STRICT.readTree(text));
    }

    @Example
    void duplicatesTrailingValuesAndEmptyTextAreReadAsTheMapperReadsThem() {
        for (String text : List.of("{\"a\": 1, \"a\": 2}", "{\"a\": {\"b\": 1, \"b\": 1}}", "{} {}", "{} x", "{}]", "",
                "  \n", "[1, 2]", "\"text\"", "{\"a\": 1} ", "{\"a\": [1, 2.5, 9223372036854775807, 99999999999999999999]}")) {
            assertSameAsMapper(text);
        }
    }

    @Example
    void aDuplicateIsRefusedWhereItIs() {
        assertThatThrownBy(() -> ConfigTree.read("{\"a\": 1,\n \"a\": 2}"))
                .isInstanceOf(JacksonException.class)
                .satisfies(e -> assertThat(((JacksonException) e).getLocation().getLineNr()).isEqualTo(2))
                .hasMessageContaining("Duplicate Object property \"a\"");
    }

    private static void assertSameAsMapper(String text) {
        JsonNode expected;
        try {
            expected = STRICT.readTree(text);
        } catch (JacksonException e) {
            Throwable refusal = catchThrowable(() -> ConfigTree.read(text));
            assertThat(refusal).as("refused by the mapper: %s", e.getOriginalMessage()).isInstanceOf(JacksonException.class);
            if (!e.getOriginalMessage().startsWith("Trailing token")) {
                assertThat(((JacksonException) refusal).getOriginalMessage()).isEqualTo(e.getOriginalMessage());
                assertThat(((JacksonException) refusal).getLocation().getCharOffset()).isEqualTo(e.getLocation().getCharOffset());
            }
            return;
        }
        JsonNode read = ConfigTree.read(text);
        assertThat(read).isEqualTo(expected);
        assertThat(read.getClass()).isEqualTo(expected.getClass());
    }

    @Provide
    Arbitrary<String> nearJson() {
        return Arbitraries.of(PIECES).list().ofMaxSize(14).map(pieces -> String.join("", pieces));
    }

    @Provide
    Arbitrary<String> trees() {
        Arbitrary<String> scalar = Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(12).map(s -> STRICT.writeValueAsString(s)),
                Arbitraries.longs().map(String::valueOf),
                Arbitraries.bigIntegers().between(new java.math.BigInteger("-1" + "0".repeat(25)),
                        new java.math.BigInteger("1" + "0".repeat(25))).map(String::valueOf),
                Arbitraries.doubles().map(String::valueOf),
                Arbitraries.of("true", "false", "null"));
        return Arbitraries.recursive(() -> scalar, inner -> Arbitraries.oneOf(
                inner.list().ofMaxSize(4).map(items -> "[" + String.join(", ", items) + "]"),
                Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(5).list().uniqueElements().ofMaxSize(4)
                        .flatMap(keys -> inner.list().ofSize(keys.size()).map(values -> {
                            StringBuilder object = new StringBuilder("{");
                            for (int i = 0; i < keys.size(); i++) {
                                object.append(i == 0 ? "" : ", ").append('"').append(keys.get(i)).append("\": ").append(values.get(i));
                            }
                            return object.append('}').toString();
                        }))), 3);
    }
}
