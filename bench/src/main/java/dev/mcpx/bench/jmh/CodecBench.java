package dev.mcpx.bench.jmh;

import dev.mcpx.protocol.JsonRpcCodec;
import dev.mcpx.protocol.JsonRpcMessage;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** The JSON-RPC codec on the messages of one {@code tools/call}: the request in, the result out. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class CodecBench {

    static final String CALL = """
            {"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"github__search_issues",\
            "arguments":{"query":"is:open label:bug","limit":20},"_meta":{"progressToken":"p-42",\
            "io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}""";

    static final String RESULT = """
            {"jsonrpc":"2.0","id":42,"result":{"content":[{"type":"text","text":"%s"}],\
            "structuredContent":{"total":20,"items":[1,2,3,4,5,6,7,8,9,10]},"isError":false}}"""
            .formatted("x".repeat(1024));

    private final JsonRpcCodec codec = new JsonRpcCodec();
    private JsonRpcMessage decodedResult;

    @Setup
    public void setUp() {
        decodedResult = codec.decode(RESULT);
    }

    @Benchmark
    public JsonRpcMessage decodeRequest() {
        return codec.decode(CALL);
    }

    @Benchmark
    public JsonRpcMessage decodeResult1k() {
        return codec.decode(RESULT);
    }

    @Benchmark
    public String encodeResult1k() {
        return codec.encode(decodedResult);
    }
}
