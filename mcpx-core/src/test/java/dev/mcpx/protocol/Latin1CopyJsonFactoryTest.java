package dev.mcpx.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonWriteFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** mcpx's JSON reads and writes exactly what Jackson's own factory does, whatever the strings hold. */
class Latin1CopyJsonFactoryTest {

    private static final JsonMapper STOCK = JsonMapper.builder().build();
    private static final JsonMapper ESCAPING = JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

    /** Around the copy's edge cases: quote, backslash, control characters, '?', non-ASCII, surrogates alone and paired. */
    private static final String TRICKY = "aZ0 /?\"\\\u0000\u001f\u007f\u0080\u00e9\u20ac\ud83d\ude00";

    @Property(tries = 2000)
    void writesTheBytesJacksonWrites(@ForAll @Chars({'a', 'Z', '0', ' ', '/', '?', '"', '\\', '\u0000', '\u001f',
            '\u007f', '\u0080', '\u00e9', '\u20ac', '\ud83d', '\ude00'}) @StringLength(max = 300) String text) {
        ObjectNode message = Json.object();
        message.put("text", text);
        message.putArray("parts").add(text).add(1).add(text);
        assertThat(outcome(() -> Json.writeBytes(message))).isEqualTo(outcome(() -> STOCK.writeValueAsBytes(message)));
    }

    /** Long enough to be copied, and mostly Latin-1, so that every escape Jackson writes is the copy's to write. */
    @Property(tries = 2000)
    void writesLatin1TextAsJacksonWritesIt(@ForAll @CharRange(from = '\u0000', to = '\u007f') @StringLength(min = 60, max = 300) String text,
                                          @ForAll @CharRange(from = ' ', to = '~') @StringLength(min = 64, max = 300) String printable,
                                          @ForAll @CharRange(from = ' ', to = '~') @Chars({'\n', '\t', '\r', '\b', '\f'})
                                          @StringLength(min = 64, max = 300) String lines,
                                          @ForAll @CharRange(from = ' ', to = '~') @Chars({'\u0080', '\u00a0', '\u00e9', '\u00ff', '\n', '\u0100', '\u2014', '\uffff', '\ud800'})
                                          @StringLength(min = 64, max = 300) String latin1) {
        ObjectNode message = Json.object();
        message.put("text", text);
        message.putArray("parts").add(printable).add(text + "?").add(lines).add(latin1).add(latin1 + "\u20ac");
        assertThat(outcome(() -> Json.writeBytes(message))).isEqualTo(outcome(() -> STOCK.writeValueAsBytes(message)));
    }

    /** Text Jackson wrote with every char beyond ASCII as a \\u escape, and the short escapes, reads back the same. */
    @Property(tries = 2000)
    void parsesEscapedTextAsJacksonDoes(@ForAll @StringLength(max = 300) String text,
                                        @ForAll @CharRange(from = '\u0000', to = '\u00ff') @StringLength(max = 300) String latin1) {
        ObjectNode message = Json.object();
        message.put("text", text);
        message.put("latin1", latin1);
        byte[] json = ESCAPING.writeValueAsBytes(message);
        assertThat(Json.parse(json, 0, json.length)).isEqualTo(STOCK.readTree(json)).isEqualTo(message);
    }

    /** Latin-1 as Jackson writes it, its chars beyond ASCII as two bytes of UTF-8, and after them a char beyond Latin-1. */
    @Property(tries = 2000)
    void parsesLatin1AsJacksonDoes(@ForAll @CharRange(from = '\u0000', to = '\u00ff') @StringLength(max = 300) String latin1,
                                   @ForAll @Chars({'a', '\u00e9', '\u0100', '\u20ac', '\ud83d', '\ude00', '\n'}) @StringLength(max = 20) String tail) {
        ObjectNode message = Json.object();
        message.put("text", latin1);
        message.put("tail", latin1 + tail);
        byte[] json = STOCK.writeValueAsBytes(message);
        assertThat(Json.parse(json, 0, json.length)).isEqualTo(STOCK.readTree(json)).isEqualTo(message);
    }

    @Property(tries = 2000)
    void parsesWhatJacksonParses(@ForAll @Chars({'a', 'Z', '0', ' ', '/', '?', '"', '\\', 'n', 'u', '\u0000', '\u001f',
            '\u007f', '\u00e9', '\u20ac', '\ud83d', '\ude00'}) @StringLength(max = 300) String raw) {
        // the raw text between quotes, escapes and all: often not JSON, and then both must refuse it
        byte[] json = ("{\"text\":\"" + raw + "\",\"parts\":[\"" + raw + "\",2]}").getBytes(StandardCharsets.UTF_8);
        assertThat(outcome(() -> Json.parse(json, 0, json.length))).isEqualTo(outcome(() -> STOCK.readTree(json)));
    }

    @Test
    void aLongPlainTextGoesThereAndBackUnchanged() {
        String text = "x/?~ ".repeat(40_000) + "\u007f";
        ObjectNode message = Json.object();
        message.put("text", text);
        byte[] written = Json.writeBytes(message);
        assertThat(written).isEqualTo(STOCK.writeValueAsBytes(message));
        assertThat(Json.parse(written, 0, written.length).get("text").asString()).isEqualTo(text);
        assertThat(Json.parse(new String(written, StandardCharsets.UTF_8))).isEqualTo(message);
    }

    @Test
    void textThatIsMostlyEscapesIsWrittenAsJacksonWritesIt() {
        ObjectNode message = Json.object();
        message.put("quotes", "\"".repeat(100));
        message.put("lines", "a\n\t".repeat(100) + "\u0001");
        message.put("lateNonAscii", "x".repeat(200) + "\\n" + "\u00e9");
        assertThat(Json.writeBytes(message)).isEqualTo(STOCK.writeValueAsBytes(message));
    }

    @Test
    void aStringCopiedAsBytesIsFollowedByTheRestOfTheMessage() {
        byte[] json = "{\"a\":\"plain\",\"b\":\"tab\\there\",\"c\":[\"x\",\"\"],\"d\":\"caf\u00e9\",\"e\":7}"
                .getBytes(StandardCharsets.UTF_8);
        JsonNode tree = Json.parse(json, 0, json.length);
        assertThat(tree).isEqualTo(STOCK.readTree(json));
        assertThat(tree.get("b").asString()).isEqualTo("tab\there");
        assertThat(tree.get("e").asInt()).isEqualTo(7);
    }

    @Test
    void anUnpairedSurrogateIsWrittenAsJacksonWritesIt() {
        // ISO-8859-1 turns it into '?', which a plain copy would then write
        ObjectNode message = Json.object();
        message.put("text", "a".repeat(100) + "\ud800" + "b".repeat(100));
        byte[] stock = STOCK.writeValueAsBytes(message);
        assertThat(Json.writeBytes(message)).isEqualTo(stock);
        assertThat(new String(stock, StandardCharsets.UTF_8)).doesNotContain("a?b");
    }

    @Test
    void utf16WithAByteOrderMarkStillParses() {
        byte[] json = "\ufeff{\"text\":\"hello\"}".getBytes(StandardCharsets.UTF_16BE);
        assertThat(Json.parse(json, 0, json.length).get("text").asString()).isEqualTo("hello");
    }

    @Test
    void theLimitOnAStringsLengthHoldsForACopiedString() {
        JsonMapper limited = JsonMapper.builder(new Latin1CopyJsonFactory(JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(1000).build()))).build();
        byte[] json = ("{\"text\":\"" + "x".repeat(1001) + "\"}").getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> limited.readTree(json)).isInstanceOf(JacksonException.class)
                .hasMessageContaining("1000");
        byte[] fits = ("{\"text\":\"" + "x".repeat(1000) + "\"}").getBytes(StandardCharsets.UTF_8);
        assertThat(limited.readTree(fits).get("text").asString()).hasSize(1000);
    }

    @Test
    void mcpxsMapperReadsAndWritesThroughTheCopyingParserAndGenerator() {
        byte[] json = "{\"text\":\"plain\"}".getBytes(StandardCharsets.UTF_8);
        try (JsonParser parser = Json.mapper().createParser(json);
             JsonGenerator generator = Json.mapper().createGenerator(new ByteArrayOutputStream())) {
            assertThat(parser.getClass().getEnclosingClass()).isEqualTo(Latin1CopyJsonFactory.class);
            assertThat(generator.getClass().getEnclosingClass()).isEqualTo(Latin1CopyJsonFactory.class);
        }
    }

    @Test
    void aWriterWithItsOwnEscapesWritesAsJacksonDoes() {
        ObjectNode message = Json.object();
        message.put("text", "a/b caf\u00e9 \u2014 ".repeat(20));
        for (JsonWriteFeature feature : new JsonWriteFeature[] {JsonWriteFeature.ESCAPE_NON_ASCII, JsonWriteFeature.ESCAPE_FORWARD_SLASHES}) {
            byte[] stock = STOCK.writer().with(feature).writeValueAsBytes(message);
            assertThat(Json.mapper().writer().with(feature).writeValueAsBytes(message)).isEqualTo(stock);
            assertThat(stock).isNotEqualTo(STOCK.writeValueAsBytes(message));
        }
    }

    @Test
    void aDocumentOfOneByteParses() {
        byte[] json = "7".getBytes(StandardCharsets.UTF_8);
        assertThat(Json.parse(json, 0, 1).asInt()).isEqualTo(7);
    }

    /** The value, or the fact of a failure: Jackson's messages name positions the two may count differently. */
    private static Object outcome(Supplier<Object> action) {
        try {
            Object value = action.get();
            return value instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : value;
        } catch (JacksonException e) {
            return "refused";
        }
    }
}
