package dev.mcpx.bench.jmh;

import dev.mcpx.catalogue.Catalogue;
import dev.mcpx.catalogue.ListKind;
import dev.mcpx.catalogue.Route;
import dev.mcpx.protocol.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import tools.jackson.databind.node.ObjectNode;

/**
 * The gateway's catalogue: the name lookup every routed call does, the first page of a host's
 * {@code tools/list}, and the rebuild when one upstream's tool list changes, at 10 upstreams.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class RoutingBench {

    @Param({"100", "10000"})
    public int tools;

    private Catalogue catalogue;
    private String lastTool;
    private List<ObjectNode> changedList;

    @Setup
    public void setUp() {
        catalogue = new Catalogue();
        int upstreams = 10;
        int each = tools / upstreams;
        for (int u = 0; u < upstreams; u++) {
            String name = "u%02d".formatted(u);
            catalogue.register(name, name);
            catalogue.replace(name, ListKind.TOOLS, toolList(each, "t"));
        }
        lastTool = "u09__t%05d".formatted(each - 1);
        changedList = toolList(each, "v");
    }

    private static List<ObjectNode> toolList(int count, String stem) {
        List<ObjectNode> list = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ObjectNode tool = Json.object().put("name", stem + "%05d".formatted(i)).put("description", "tool " + i);
            tool.putObject("inputSchema").put("type", "object");
            list.add(tool);
        }
        return list;
    }

    @Benchmark
    public Optional<Route> lookup() {
        return catalogue.tool(lastTool);
    }

    @Benchmark
    public Catalogue.Page firstPage() {
        return catalogue.page(ListKind.TOOLS, null, 100);
    }

    @Benchmark
    public Catalogue rebuildOnListChange() {
        catalogue.replace("u05", ListKind.TOOLS, changedList);
        return catalogue;
    }
}
