package dev.mcpx.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpx.protocol.JsonRpcMessage.ErrorResponse;
import dev.mcpx.protocol.JsonRpcMessage.Notification;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.JsonRpcMessage.Result;
import dev.mcpx.protocol.MalformedMessageException.Kind;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JsonRpcCodecTest {

    private final JsonRpcCodec codec = new JsonRpcCodec(1024);

    @Test
    void stringAndNumberIdsStayDistinctThroughARoundTrip() {
        JsonRpcMessage text = codec.decode("{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"method\":\"ping\"}");
        JsonRpcMessage number = codec.decode("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");

        assertThat(((Request) text).id()).isEqualTo(RequestId.of("1"));
        assertThat(((Request) number).id()).isEqualTo(RequestId.of(1));
        assertThat(((Request) text).id()).isNotEqualTo(((Request) number).id());
        assertThat(codec.encode(text)).contains("\"id\":\"1\"");
        assertThat(codec.encode(number)).contains("\"id\":1");
    }

    @Test
    void idsFindTheirEntryInAMapAndTextNeverMatchesANumber() {
        Map<RequestId, String> pending = new HashMap<>();
        pending.put(RequestId.of(7), "number");
        pending.put(RequestId.of("7"), "text");

        assertThat(pending.get(((Request) codec.decode("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}")).id()))
                .isEqualTo("number");
        assertThat(pending.get(((Request) codec.decode("{\"jsonrpc\":\"2.0\",\"id\":\"7\",\"method\":\"ping\"}")).id()))
                .isEqualTo("text");
        assertThat(pending.get(RequestId.of(8))).isNull();
        assertThat(RequestId.of("x")).isEqualTo(RequestId.of("x")).hasSameHashCodeAs(RequestId.of("x"));
    }

    @Test
    void largeNumericIdsSurviveExactly() {
        String line = "{\"jsonrpc\":\"2.0\",\"id\":9007199254740993,\"result\":{}}";
        assertThat(codec.encode(codec.decode(line))).contains("9007199254740993");
    }

    @Test
    void unknownFieldsInParamsAndResultsSurvive() {
        String request = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",\"futureField\":{\"a\":[1,2]}}}";
        String result = "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[],\"_meta\":{\"vendor/x\":true},\"extra\":1.5}}";

        assertThat(Json.parse(codec.encode(codec.decode(request)))).isEqualTo(Json.parse(request));
        assertThat(Json.parse(codec.encode(codec.decode(result)))).isEqualTo(Json.parse(result));
    }

    @Test
    void decodesEachKind() {
        assertThat(codec.decode("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")).isInstanceOf(Notification.class);
        assertThat(codec.decode("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":null}")).isInstanceOf(Result.class);
        JsonRpcMessage error = codec.decode("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"bad\",\"data\":[1]}}");
        assertThat(error).isInstanceOf(ErrorResponse.class);
        assertThat(((ErrorResponse) error).id()).isNull();
        assertThat(((ErrorResponse) error).error().code()).isEqualTo(-32700);
        assertThat(codec.encode(error)).contains("\"id\":null").contains("\"data\":[1]");
    }

    @Test
    void encodingIsOneLineEvenWithNewlinesInStrings() {
        Request request = new Request(RequestId.of(1), "tools/call", Json.object().put("text", "a\nb\r\nc"));
        assertThat(codec.encode(request)).doesNotContain("\n").doesNotContain("\r");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "not json at all|NOT_JSON",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":|NOT_JSON",
        "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]|BATCH",
        "\"just a string\"|NOT_AN_OBJECT",
        "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}|WRONG_VERSION",
        "{\"id\":1,\"method\":\"ping\"}|WRONG_VERSION",
        "{\"jsonrpc\":\"2.0\",\"id\":{\"x\":1},\"method\":\"ping\"}|BAD_ID",
        "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}|BAD_ID",
        "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}|BAD_ID",
        "{\"jsonrpc\":\"2.0\",\"id\":1}|MISSING_METHOD",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\"}|MISSING_METHOD",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":42}|MISSING_METHOD",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":[1]}|BAD_PARAMS",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":\"oops\"}|NOT_A_MESSAGE",
        "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}|BAD_ID",
    })
    void malformedInputIsATypedError(String input, Kind expected) {
        assertThatThrownBy(() -> codec.decode(input))
                .isInstanceOfSatisfying(MalformedMessageException.class, e -> assertThat(e.kind()).isEqualTo(expected));
    }

    @Test
    void malformedRequestWithReadableIdKeepsTheIdForTheErrorAnswer() {
        assertThatThrownBy(() -> codec.decode("{\"jsonrpc\":\"1.0\",\"id\":\"abc\",\"method\":\"ping\"}"))
                .isInstanceOfSatisfying(MalformedMessageException.class, e -> {
                    assertThat(e.id()).isEqualTo(RequestId.of("abc"));
                    assertThat(e.toError().code()).isEqualTo(ErrorCodes.INVALID_REQUEST);
                });
    }

    @Test
    void aMessageOverTheLimitIsRejectedBeforeParsing() {
        String big = "{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{\"t\":\"" + "y".repeat(2000) + "\"}}";
        assertThatThrownBy(() -> codec.decode(big))
                .isInstanceOfSatisfying(MalformedMessageException.class, e -> assertThat(e.kind()).isEqualTo(Kind.TOO_LARGE));
    }

    @Test
    void notJsonMapsToParseError() {
        assertThatThrownBy(() -> codec.decode("}{"))
                .isInstanceOfSatisfying(MalformedMessageException.class,
                        e -> assertThat(e.toError().code()).isEqualTo(ErrorCodes.PARSE_ERROR));
    }

    @Test
    void bytesDecodeAndEncodeAsTheirText() {
        String line = "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"text\":\"h\u00e9 \u20ac \uD83D\uDE00\"}}";
        byte[] utf8 = ("xx" + line).getBytes(StandardCharsets.UTF_8);
        JsonRpcMessage fromBytes = codec.decode(utf8, 2, utf8.length - 2);
        assertThat(fromBytes).isEqualTo(codec.decode(line));
        assertThat(new String(codec.encodeBytes(fromBytes), StandardCharsets.UTF_8)).isEqualTo(codec.encode(fromBytes));
    }

    @Test
    void aLineIsTheMessagesUtf8AndOneNewlineAtItsEndOnly() {
        Request request = new Request(RequestId.of(9), "tools/call",
                Json.object().put("text", "a\nb h\u00e9 \u20ac \uD83D\uDE00"));
        byte[] line = codec.encodeLine(request);
        assertThat(new String(line, StandardCharsets.UTF_8)).isEqualTo(codec.encode(request) + "\n");
        assertThat(codec.decode(line, 0, line.length - 1)).isEqualTo(request);
    }

    @Test
    void bytesThatAreNotUtf8AreReadAsTheirTextWouldBe() {
        byte[] head = "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"text\":\"".getBytes(StandardCharsets.UTF_8);
        byte[] tail = "\"}}".getBytes(StandardCharsets.UTF_8);
        byte[] line = new byte[head.length + 1 + tail.length];
        System.arraycopy(head, 0, line, 0, head.length);
        line[head.length] = (byte) 0xff;
        System.arraycopy(tail, 0, line, head.length + 1, tail.length);
        assertThat(codec.decode(line, 0, line.length)).isEqualTo(codec.decode(new String(line, StandardCharsets.UTF_8)));
        assertThatThrownBy(() -> codec.decode("}{".getBytes(StandardCharsets.UTF_8), 0, 2))
                .isInstanceOfSatisfying(MalformedMessageException.class, e -> assertThat(e.kind()).isEqualTo(Kind.NOT_JSON));
    }
}
