package dev.mcpx.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseReaderTest {

    private static SseReader reader(String text, int limit) {
        return new SseReader(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), limit);
    }

    private static List<SseEvent> all(String text) throws IOException {
        SseReader reader = reader(text, 1024);
        List<SseEvent> events = new ArrayList<>();
        SseEvent event;
        while ((event = reader.next()) != null) {
            events.add(event);
        }
        return events;
    }

    @Test
    void joinsMultiLineDataWithLineFeeds() throws IOException {
        assertThat(all("data: {\"a\":\ndata: 1}\n\n"))
                .containsExactly(new SseEvent(null, "message", "{\"a\":\n1}"));
    }

    @Test
    void readsEventTypeAndId() throws IOException {
        assertThat(all("event: endpoint\nid: 7\ndata: /messages?s=1\n\n"))
                .containsExactly(new SseEvent("7", "endpoint", "/messages?s=1"));
    }

    @Test
    void idCarriesOverToLaterEventsUntilReplaced() throws IOException {
        assertThat(all("id: a\ndata: 1\n\ndata: 2\n\nid: b\ndata: 3\n\n")).extracting(SseEvent::id)
                .containsExactly("a", "a", "b");
    }

    @Test
    void retryIsRememberedAndNonNumericRetryIgnored() throws IOException {
        SseReader reader = reader("retry: 500\nid: 1\ndata:\n\nretry: soon\ndata: x\n\n", 1024);
        reader.next();
        assertThat(reader.retryMillis()).isEqualTo(500);
        reader.next();
        assertThat(reader.retryMillis()).isEqualTo(500);
        assertThat(reader.lastEventId()).isEqualTo("1");
    }

    @Test
    void skipsCommentsAndEventsWithoutData() throws IOException {
        assertThat(all(": keep-alive\n\nevent: ping\n\n: another\ndata: x\n\n"))
                .containsExactly(new SseEvent(null, "message", "x"));
    }

    @Test
    void acceptsCrLfLfAndCrLineEnds() throws IOException {
        assertThat(all("data: a\r\n\r\ndata: b\n\ndata: c\r\rdata: d\r\n\n"))
                .extracting(SseEvent::data).containsExactly("a", "b", "c", "d");
    }

    @Test
    void stripsOneLeadingSpaceOnly() throws IOException {
        assertThat(all("data:  two\ndata:none\n\n")).extracting(SseEvent::data).containsExactly(" two\nnone");
    }

    @Test
    void emptyDataLineMakesAnEmptyEvent() throws IOException {
        assertThat(all("id: p1\ndata:\n\n")).containsExactly(new SseEvent("p1", "message", ""));
    }

    @Test
    void eventCutByEndOfStreamIsNotDispatched() throws IOException {
        assertThat(all("data: whole\n\ndata: cut off")).extracting(SseEvent::data).containsExactly("whole");
        assertThat(all("data: no blank line\n")).isEmpty();
    }

    @Test
    void eventOverTheLimitFailsTheStream() {
        SseReader reader = reader("data: " + "x".repeat(200) + "\n\n", 100);
        assertThatThrownBy(reader::next).isInstanceOf(SseReader.SseLimitException.class)
                .hasMessageContaining("100");
    }

    @Test
    void limitCountsTheWholeEventNotOneLine() {
        SseReader reader = reader("data: " + "x".repeat(60) + "\ndata: " + "y".repeat(60) + "\n\n", 100);
        assertThatThrownBy(reader::next).isInstanceOf(SseReader.SseLimitException.class);
    }

    @Test
    void limitResetsBetweenEvents() throws IOException {
        SseReader reader = reader("data: " + "x".repeat(60) + "\n\ndata: " + "y".repeat(60) + "\n\n", 100);
        assertThat(reader.next().data()).hasSize(60);
        assertThat(reader.next().data()).hasSize(60);
    }

    @Test
    void decodesUtf8AcrossTheStream() throws IOException {
        assertThat(all("data: héllo ✓\n\n")).extracting(SseEvent::data).containsExactly("héllo ✓");
    }
}
