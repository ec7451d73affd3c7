package dev.mcpx.front;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.catalogue.Catalogue;
import dev.mcpx.catalogue.CatalogueFilter;
import dev.mcpx.catalogue.HostView;
import dev.mcpx.catalogue.ListKind;
import dev.mcpx.catalogue.Profile;
import dev.mcpx.catalogue.RealTools;
import dev.mcpx.protocol.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * What search mode saves a host's context: the bytes (and bytes/4 as a rough token count) of the
 * {@code tools/list} results a host reads for the merged catalogue and for search mode, at 10,
 * 100 and 1,000 real tools (the 217 of {@code real-tools.json}, repeated under other server names
 * past that). The numbers are in docs/benchmarks.md.
 */
class SearchSavingsTest {

    private static final Profile SEARCH = new Profile("", List.of(), CatalogueFilter.NONE,
            new Profile.Search(true, List.of()));

    @Test
    void searchModeListsAFewHundredTokensWhateverTheCatalogueHolds() {
        System.out.println("| tools | merged tools/list bytes | ~tokens | search mode bytes | ~tokens | saved |");
        System.out.println("|---:|---:|---:|---:|---:|---:|");
        long searchBytesAt10 = 0;
        for (int size : List.of(10, 100, 1000)) {
            Catalogue catalogue = catalogue(size);
            HostView merged = catalogue.view(Profile.WHOLE);
            assertThat(merged.list(ListKind.TOOLS)).hasSize(size);
            long mergedBytes = listBytes(merged.list(ListKind.TOOLS));
            long searchBytes = listBytes(SearchMode.listed(catalogue.view(SEARCH)));
            searchBytesAt10 = size == 10 ? searchBytes : searchBytesAt10;
            System.out.printf("| %d | %,d | %,d | %,d | %,d | %.1f%% |%n", size, mergedBytes, mergedBytes / 4,
                    searchBytes, searchBytes / 4, 100.0 * (mergedBytes - searchBytes) / mergedBytes);
            assertThat(searchBytes).as("search mode lists the same three tools at any size").isEqualTo(searchBytesAt10);
            if (size >= 100) {
                assertThat(searchBytes * 10).isLessThan(mergedBytes);
            }
        }
        Catalogue large = catalogue(1000);
        ObjectNode query = Json.object();
        query.putObject("arguments").put("query", "create a pull request");
        long answer = Json.write(SearchMode.search(large.index(large.view(SEARCH)), query))
                .getBytes(StandardCharsets.UTF_8).length;
        System.out.printf("a search answer (5 hits) over 1000 tools: %,d bytes, ~%,d tokens%n", answer, answer / 4);
        assertThat(answer).isLessThan(searchBytesAt10 * 4);
    }

    /** {@code size} real tools over as many upstreams as the fixture's servers, repeated with new names past 217. */
    private static Catalogue catalogue(int size) {
        List<ObjectNode> real = RealTools.all();
        Catalogue catalogue = new Catalogue();
        int added = 0;
        for (int copy = 0; added < size; copy++) {
            String upstream = "copy" + copy;
            catalogue.register(upstream, copy == 0 ? "" : upstream);
            List<ObjectNode> tools = new ArrayList<>(real.subList(0, Math.min(real.size(), size - added)));
            catalogue.replace(upstream, ListKind.TOOLS, tools);
            added += tools.size();
        }
        return catalogue;
    }

    /** The {@code tools/list} result a host reads, as JSON bytes. */
    private static long listBytes(List<ObjectNode> tools) {
        ObjectNode result = Json.object();
        tools.forEach(result.putArray("tools")::add);
        return Json.write(result).getBytes(StandardCharsets.UTF_8).length;
    }
}
