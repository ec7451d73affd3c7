package dev.mcpx.transport.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Fuzzing the SSE parser: any bytes give events or {@link SseReader.SseLimitException}, never
 * another exception; no event is larger than the limit; and how the bytes are split into reads
 * changes nothing. Tries come from {@code jqwik.tries.default}.
 */
class SseReaderFuzzTest {

    private static final int LIMIT = 512;

    @Property
    void anyBytesGiveEventsOrTheLimitError(@ForAll byte[] bytes) {
        parse(new ByteArrayInputStream(bytes));
    }

    @Property
    void sseShapedTextGivesEventsWithinTheLimit(@ForAll("sseShaped") String text) {
        Outcome outcome = parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
        outcome.events().forEach(event -> assertThat(event.data().getBytes(StandardCharsets.UTF_8).length)
                .isLessThanOrEqualTo(LIMIT));
    }

    @Property
    void splittingTheStreamIntoReadsChangesNothing(@ForAll("sseShaped") String text,
                                                   @ForAll @IntRange(min = 1, max = 7) int chunk) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        Outcome whole = parse(new ByteArrayInputStream(bytes));
        Outcome split = parse(new Trickle(bytes, chunk));
        assertThat(split).isEqualTo(whole);
    }

    private static Outcome parse(InputStream in) {
        SseReader reader = new SseReader(in, LIMIT);
        List<SseEvent> events = new ArrayList<>();
        try {
            for (SseEvent event = reader.next(); event != null; event = reader.next()) {
                events.add(event);
                assertThat(events).hasSizeLessThan(100_000);
            }
            return new Outcome(events, false);
        } catch (SseReader.SseLimitException e) {
            return new Outcome(events, true);
        } catch (IOException e) {
            throw new AssertionError("only the limit may fail an in-memory stream", e);
        }
    }

    record Outcome(List<SseEvent> events, boolean overLimit) {
    }

    @Provide
    Arbitrary<String> sseShaped() {
        Arbitrary<String> field = Arbitraries.of("data", "data:", "data: ", "event: ", "id: ", "id:\0", "retry: ",
                "retry: 99999999999999", ":", "", " data", "bogus: ");
        Arbitrary<String> value = Arbitraries.strings().ofMaxLength(40);
        Arbitrary<String> end = Arbitraries.of("\n", "\r", "\r\n", "\n\n", "\r\r", "");
        Arbitrary<String> line = net.jqwik.api.Combinators.combine(field, value, end).as((f, v, e) -> f + v + e);
        return line.list().ofMaxSize(30).map(lines -> String.join("", lines));
    }

    /** An input stream that hands out at most {@code chunk} bytes per read. */
    private static final class Trickle extends InputStream {
        private final byte[] bytes;
        private final int chunk;
        private int position;

        Trickle(byte[] bytes, int chunk) {
            this.bytes = bytes;
            this.chunk = chunk;
        }

        @Override
        public int read() {
            return position < bytes.length ? bytes[position++] & 0xFF : -1;
        }

        @Override
        public int read(byte[] target, int offset, int length) {
            if (position >= bytes.length) {
                return -1;
            }
            int n = Math.min(Math.min(length, chunk), bytes.length - position);
            System.arraycopy(bytes, position, target, offset, n);
            position += n;
            return n;
        }
    }
}
