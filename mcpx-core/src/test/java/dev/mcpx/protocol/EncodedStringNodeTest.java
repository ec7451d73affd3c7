package dev.mcpx.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonWriteFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * A long string of a parsed message is kept as the bytes it arrived in: it reads as the string
 * Jackson reads, and is written back as it came.
 */
class EncodedStringNodeTest {

    private static final JsonMapper STOCK = JsonMapper.builder().build();
    private static final JsonMapper ESCAPING = JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

    /** Text across the length where strings are kept, with every kind of char JSON escapes or encodes in several bytes. */
    @Property(tries = 2000)
    void aParsedStringReadsAsJacksonReadsItAndIsWrittenBackAsItCame(
            @ForAll @Chars({'a', 'Z', '0', ' ', '/', '?', '"', '\\', '\n', '\t', '\u0000', '\u001f', '\u007f', '\u0080',
                    '\u00e9', '\u0800', '\u20ac', '\ud7ff', '\ue000', '\uffff', '\ud83d', '\ude00'})
            @StringLength(min = 400, max = 900) String text,
            @ForAll @IntRange(min = 0, max = 2) int writer) {
        ObjectNode message = Json.object();
        message.put("text", text);
        message.putArray("parts").add(text).add(1).addObject().put("inner", text);
        byte[] json = switch (writer) {
            case 0 -> STOCK.writeValueAsBytes(message);
            case 1 -> ESCAPING.writeValueAsBytes(message);
            default -> STOCK.writer().with(JsonWriteFeature.ESCAPE_FORWARD_SLASHES).writeValueAsBytes(message);
        };
        JsonNode parsed = Json.parse(json, 0, json.length);
        assertThat(parsed.get("text").asString()).isEqualTo(STOCK.readTree(json).get("text").asString());
        assertThat(STOCK.writeValueAsString(parsed)).isEqualTo(STOCK.writeValueAsString(STOCK.readTree(json)));
        assertThat(parsed).isEqualTo(STOCK.readTree(json));
        // what Jackson wrote, it would write again the same: so mcpx's copy must be byte for byte that
        assertThat(new String(Json.writeBytes(parsed), StandardCharsets.UTF_8)).isEqualTo(new String(json, StandardCharsets.UTF_8));
    }

    /** Valid pieces of a string: escapes, and chars of two, three and four bytes of UTF-8. */
    private static final String[] VALID = {"", "\\n", "\\/", "\\\"", "\\\\", "\\u00e9", "\\uD83D\\uDE00", "\u00e9", "\u20ac",
        "\ud83d\ude00", "\u007f", " "};
    /** What a sender may get wrong inside a string, and edges that are right. */
    private static final byte[][] EDGES = {
        bytes('\\', 'x'), bytes('\\', 'u', '1', '2', 'g', '4'), bytes('\\', 'u', 'D', '8', '0', '0'), bytes(0x00), bytes(0x1f),
        bytes(0x7f), bytes(0x80), bytes(0xc0, 0x80), bytes(0xc1, 0xbf), bytes(0xc3), bytes(0xc3, 'a'), bytes(0xe0, 0x80, 0x80),
        bytes(0xe0, 0xa0, 0x80), bytes(0xed, 0xa0, 0x80), bytes(0xed, 0x9f, 0xbf), bytes(0xef, 0xbf, 0xbf),
        bytes(0xf0, 0x8f, 0xbf, 0xbf), bytes(0xf0, 0x90, 0x80, 0x80), bytes(0xf4, 0x8f, 0xbf, 0xbf), bytes(0xf4, 0x90, 0x80, 0x80),
        bytes(0xf0, 0x9f, 0x98), bytes(0xf5, 0x80, 0x80, 0x80), bytes(0xff), bytes('"'), bytes('\\'),
    };

    /**
     * Strings around the length where they are kept, with one edge somewhere (a bad escape, a
     * control char, UTF-8 overlong, cut short or beyond U+10FFFF, a quote, or something right):
     * refused where Jackson refuses them, at once; else read as Jackson reads them and written back
     * as JSON that Jackson reads the same.
     */
    @Property(tries = 3000)
    void aLongStringIsReadWhenJacksonReadsItAndRefusedWhenItRefusesIt(
            @ForAll @Size(min = 20, max = 60) List<@IntRange(min = 0, max = 11) Integer> pieces,
            @ForAll @IntRange(min = 0, max = 59) int at,
            @ForAll @IntRange(min = 0, max = 24) int edge,
            @ForAll boolean atTheEnd) {
        var raw = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < pieces.size(); i++) {
            if (i == at % pieces.size() && !atTheEnd) {
                raw.writeBytes(EDGES[edge]);
            }
            raw.writeBytes(("abcdefghij" + VALID[pieces.get(i)]).getBytes(StandardCharsets.UTF_8));
        }
        if (atTheEnd) {
            raw.writeBytes(EDGES[edge]);
        }
        byte[] json = concat("{\"text\":\"", raw.toByteArray(), "\",\"parts\":[\"", raw.toByteArray(), "\",2]}");
        Object stock = outcome(() -> STOCK.readTree(json));
        Object read = outcome(() -> Json.parse(json, 0, json.length));
        assertThat(read).isEqualTo(stock);
        if (!"refused".equals(read)) {
            byte[] written = Json.writeBytes(Json.parse(json, 0, json.length));
            assertThat(STOCK.writeValueAsString(STOCK.readTree(written))).isEqualTo(stock);
        }
    }

    @Test
    void aSendersOwnEscapesAreForwardedAsTheySent() {
        String sent = "{\"text\":\"" + "caf\\u00E9 \\/ path\\tline\\n".repeat(40) + "\\ud83d\\ude00\"}";
        byte[] json = sent.getBytes(StandardCharsets.UTF_8);
        JsonNode parsed = Json.parse(json, 0, json.length);
        assertThat(parsed.get("text").asString()).startsWith("caf\u00e9 / path\tline\n").endsWith("\ud83d\ude00");
        assertThat(new String(Json.writeBytes(parsed), StandardCharsets.UTF_8)).isEqualTo(sent);
        assertThat(Json.write(parsed)).isEqualTo(STOCK.writeValueAsString(STOCK.readTree(json)));
    }

    @Test
    void aKeptStringIsAStringToEveryReader() {
        String text = "x/".repeat(300);
        byte[] json = ("[\"" + text.replace("/", "\\/") + "\"]").getBytes(StandardCharsets.UTF_8);
        JsonNode kept = Json.parse(json, 0, json.length).get(0);
        StringNode stock = StringNode.valueOf(text);
        assertThat(kept).isInstanceOf(EncodedStringNode.class);
        assertThat(kept.isString()).isTrue();
        assertThat(kept.stringValue()).isEqualTo(text);
        assertThat(kept.asString("unused")).isEqualTo(text);
        assertThat(kept.stringValueOpt()).contains(text);
        assertThat(kept).isEqualTo(stock).hasSameHashCodeAs(stock).hasToString(stock.toString());
        assertThat(kept.deepCopy()).isEqualTo(stock);
        byte[] plain = ("[\"" + text + "\"]").getBytes(StandardCharsets.UTF_8);
        assertThat(kept).isEqualTo(Json.parse(plain, 0, plain.length).get(0));
        assertThat(kept).isNotEqualTo(StringNode.valueOf(text + "x"));
    }

    @Test
    void keptBase64ReadsAsItsBytes() {
        byte[] image = new byte[3000];
        Arrays.fill(image, (byte) 7);
        byte[] json = ("{\"data\":\"" + Base64.getEncoder().encodeToString(image) + "\"}").getBytes(StandardCharsets.UTF_8);
        JsonNode data = Json.parse(json, 0, json.length).get("data");
        assertThat(data).isInstanceOf(EncodedStringNode.class);
        assertThat(data.binaryValue()).isEqualTo(image);
    }

    @Test
    void aKeptStringOutlivesTheBufferItWasReadFrom() {
        String text = "y".repeat(2000);
        byte[] buffer = ("{\"text\":\"" + text + "\"}").getBytes(StandardCharsets.UTF_8);
        JsonNode parsed = Json.parse(buffer, 0, buffer.length);
        Arrays.fill(buffer, (byte) 'z');
        assertThat(parsed.get("text").asString()).isEqualTo(text);
        assertThat(new String(Json.writeBytes(parsed), StandardCharsets.UTF_8)).isEqualTo("{\"text\":\"" + text + "\"}");
    }

    @Test
    void aWriterWithItsOwnEscapesWritesAKeptStringAsJacksonWould() {
        String text = "a/b caf\u00e9 \u2014 ".repeat(60);
        ObjectNode message = Json.object();
        message.put("text", text);
        byte[] json = STOCK.writeValueAsBytes(message);
        JsonNode parsed = Json.parse(json, 0, json.length);
        assertThat(parsed.get("text")).isInstanceOf(EncodedStringNode.class);
        for (JsonWriteFeature feature : new JsonWriteFeature[] {JsonWriteFeature.ESCAPE_NON_ASCII, JsonWriteFeature.ESCAPE_FORWARD_SLASHES}) {
            assertThat(Json.mapper().writer().with(feature).writeValueAsBytes(parsed))
                    .isEqualTo(STOCK.writer().with(feature).writeValueAsBytes(message));
        }
    }

    @Test
    void onlyTreesKeepStrings() {
        String text = "q".repeat(1000);
        byte[] json = ("{\"text\":\"" + text + "\"}").getBytes(StandardCharsets.UTF_8);
        assertThat(Json.mapper().readValue(json, Map.class)).isEqualTo(Map.of("text", text));
        assertThat(Json.mapper().readTree(json).get("text")).isInstanceOf(StringNode.class);
        byte[] shortOne = "{\"text\":\"short\"}".getBytes(StandardCharsets.UTF_8);
        assertThat(Json.parse(shortOne, 0, shortOne.length).get("text")).isInstanceOf(StringNode.class);
        byte[] root = ("\"" + text + "\"").getBytes(StandardCharsets.UTF_8);
        assertThat(Json.parse(root, 0, root.length).asString()).isEqualTo(text);
    }

    @Test
    void theLimitOnAStringsLengthHoldsForAKeptString() {
        JsonMapper limited = JsonMapper.builder(new Latin1CopyJsonFactory(JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(1000).build()))).build();
        var trees = limited.reader().withAttribute(Latin1CopyJsonFactory.KEEPS_LONG_STRINGS, Boolean.TRUE);
        byte[] json = ("{\"text\":\"" + "x".repeat(1001) + "\"}").getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> trees.readTree(json)).isInstanceOf(JacksonException.class).hasMessageContaining("1000");
        byte[] fits = ("{\"text\":\"" + "x".repeat(1000) + "\"}").getBytes(StandardCharsets.UTF_8);
        assertThat(trees.readTree(fits).get("text")).isInstanceOf(EncodedStringNode.class);
    }

    private static byte[] concat(Object... parts) {
        var out = new java.io.ByteArrayOutputStream();
        for (Object part : parts) {
            out.writeBytes(part instanceof byte[] bytes ? bytes : ((String) part).getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    /** The tree as Jackson's own mapper writes it, or the fact that it was refused; a failure after that is thrown. */
    private static Object outcome(Supplier<JsonNode> action) {
        JsonNode tree;
        try {
            tree = action.get();
        } catch (JacksonException e) {
            return "refused";
        }
        return STOCK.writeValueAsString(tree);
    }

    private static byte[] bytes(int... values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return out;
    }
}
