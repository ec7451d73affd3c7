package dev.mcpx.transport.stdio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.RequestId;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The scan of an over-long line finds the top-level id wherever it stands, and nothing else. */
class ResponseHeadTest {

    private static final int LIMIT = 64;

    private static LineReader.Line read(String lines) throws IOException {
        return new LineReader(new ByteArrayInputStream(lines.getBytes(StandardCharsets.UTF_8)), LIMIT, true).next();
    }

    private static ResponseHead head(String line) throws IOException {
        return ((LineReader.Line.TooLong) read(line + "\n")).head();
    }

    @Test
    void theIdLastAfterAResultWithIdsAndBracesInsideIsFound() throws IOException {
        String result = "{\"content\":[{\"id\":99,\"text\":\"" + "}{\\\"id\\\":5]".repeat(20) + "\"}],\"nested\":{\"id\":\"no\"}}";
        assertThat(head("{\"result\":" + result + ",\"jsonrpc\":\"2.0\",\"id\":7}").responseId()).isEqualTo(RequestId.of(7));
        assertThat(head("{\"error\":{\"code\":1,\"message\":\"" + "m".repeat(100) + "\"},\"id\":\"s-1\"}").responseId())
                .isEqualTo(RequestId.of("s-1"));
    }

    @Test
    void theIdFirstIsFoundToo() throws IOException {
        assertThat(head("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"t\":\"" + "x".repeat(100) + "\"}}").responseId())
                .isEqualTo(RequestId.of(3));
    }

    @Test
    void aRequestOfTheUpstreamsOrALineWithoutAnIdNamesNoAnswer() throws IOException {
        ResponseHead request = head("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"sampling/createMessage\",\"params\":{\"p\":\""
                + "x".repeat(100) + "\"}}");
        assertThat(request.responseId()).isNull();
        assertThat(request.request()).isTrue();
        ResponseHead anonymous = head("{\"result\":{\"t\":\"" + "x".repeat(100) + "\"},\"jsonrpc\":\"2.0\"}");
        assertThat(anonymous.responseId()).isNull();
        assertThat(anonymous.request()).isFalse();
        assertThat(head("not json at all " + "x".repeat(100)).responseId()).isNull();
    }

    @Test
    void theLineAfterAnOverLongOneIsReadWhole() throws IOException {
        var reader = new LineReader(new ByteArrayInputStream(("{\"result\":\"" + "x".repeat(100) + "\",\"id\":1}\n{\"id\":2}\n")
                .getBytes(StandardCharsets.UTF_8)), LIMIT, true);
        assertThat(reader.next()).isInstanceOf(LineReader.Line.TooLong.class);
        assertThat(reader.next()).isEqualTo(new LineReader.Line.Text("{\"id\":2}"));
        assertThat(reader.next()).isNull();
    }
}
