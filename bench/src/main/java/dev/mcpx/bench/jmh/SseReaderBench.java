package dev.mcpx.bench.jmh;

import dev.mcpx.transport.http.SseEvent;
import dev.mcpx.transport.http.SseReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The SSE parser on the streams a tool call gets: a short one (priming event, one progress
 * notification, the result) and one result of 64 KiB in a single event.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class SseReaderBench {

    static final byte[] CALL_STREAM = ("""
            id: s1-0
            retry: 1000
            data:

            id: s1-1
            event: message
            data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1,"total":2}}

            id: s1-2
            event: message
            data: {"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"done"}]}}

            """).getBytes(StandardCharsets.UTF_8);

    static final byte[] BIG_EVENT = ("id: big\ndata: {\"jsonrpc\":\"2.0\",\"id\":8,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\""
            + "y".repeat(64 * 1024) + "\"}]}}\n\n").getBytes(StandardCharsets.UTF_8);

    @Benchmark
    public int callStream() throws IOException {
        return drain(CALL_STREAM);
    }

    @Benchmark
    public int bigEvent64k() throws IOException {
        return drain(BIG_EVENT);
    }

    private static int drain(byte[] stream) throws IOException {
        SseReader reader = new SseReader(new ByteArrayInputStream(stream), 16 * 1024 * 1024);
        int chars = 0;
        SseEvent event;
        while ((event = reader.next()) != null) {
            chars += event.data().length();
        }
        return chars;
    }
}
