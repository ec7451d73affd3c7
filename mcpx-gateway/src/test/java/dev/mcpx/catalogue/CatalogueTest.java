package dev.mcpx.catalogue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.McpErrorException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class CatalogueTest {

    private final Catalogue catalogue = new Catalogue();

    private static ObjectNode named(String name) {
        ObjectNode item = Json.object().put("name", name).put("description", "d " + name);
        item.putObject("x-unknown").put("kept", true);
        return item;
    }

    private static List<String> names(List<ObjectNode> items) {
        return items.stream().map(item -> Json.text(item, "name")).toList();
    }

    @Test
    void toolsAndPromptsAreNamespacedAndRouteBackToTheirOriginalNames() {
        catalogue.register("fs", "fs");
        catalogue.register("git", "git");
        catalogue.replace("fs", ListKind.TOOLS, List.of(named("read"), named("write")));
        catalogue.replace("git", ListKind.TOOLS, List.of(named("log")));
        catalogue.replace("git", ListKind.PROMPTS, List.of(named("review")));

        assertThat(names(catalogue.list(ListKind.TOOLS))).containsExactly("fs__read", "fs__write", "git__log");
        assertThat(catalogue.list(ListKind.TOOLS).get(0).path("x-unknown").path("kept").asBoolean()).isTrue();
        assertThat(catalogue.tool("git__log")).contains(new Route("git", "log"));
        assertThat(catalogue.prompt("git__review")).contains(new Route("git", "review"));
        assertThat(catalogue.tool("log")).isEmpty();
    }

    @Test
    void aListedToolIsFoundByItsExposedNameAndTheIndexFollowsListChanges() {
        catalogue.register("fs", "fs");
        ObjectNode read = named("read");
        read.putObject("inputSchema").put("type", "object");
        catalogue.replace("fs", ListKind.TOOLS, List.of(read, named("write")));

        assertThat(catalogue.listedTool("fs__read")).hasValueSatisfying(tool -> {
            assertThat(Json.text(tool, "name")).isEqualTo("fs__read");
            assertThat(tool.path("inputSchema").path("type").asString()).isEqualTo("object");
        });
        assertThat(catalogue.listedTool("read")).isEmpty();

        catalogue.replace("fs", ListKind.TOOLS, List.of(named("move")));
        assertThat(catalogue.listedTool("fs__read")).isEmpty();
        assertThat(catalogue.listedTool("fs__move")).isPresent();
    }

    @Test
    void anEmptyPrefixPassesNamesThroughAndACollisionKeepsTheFirstUpstream() {
        catalogue.register("a", "");
        catalogue.register("b", "");
        catalogue.replace("a", ListKind.TOOLS, List.of(named("search")));
        catalogue.replace("b", ListKind.TOOLS, List.of(named("search"), named("other")));

        assertThat(names(catalogue.list(ListKind.TOOLS))).containsExactly("search", "other");
        assertThat(catalogue.tool("search")).contains(new Route("a", "search"));
        assertThat(catalogue.collisions()).singleElement().satisfies(collision -> {
            assertThat(collision.describe()).contains("\"a\"").contains("\"b\"").contains("search");
        });
    }

    @Test
    void resourcesKeepTheirUrisAndTemplatesRouteByPattern() {
        catalogue.register("files", "files");
        catalogue.register("db", "db");
        catalogue.replace("files", ListKind.RESOURCES, List.of(Json.object().put("uri", "file:///a.txt").put("name", "a")));
        catalogue.replace("db", ListKind.RESOURCE_TEMPLATES, List.of(
                Json.object().put("uriTemplate", "db://tables/{table}/rows{?limit}").put("name", "rows")));

        assertThat(catalogue.list(ListKind.RESOURCES).get(0).path("name").asString()).isEqualTo("a");
        assertThat(catalogue.resource("file:///a.txt")).contains(new Route("files", "file:///a.txt"));
        assertThat(catalogue.resource("db://tables/users/rows?limit=3")).contains(new Route("db", "db://tables/users/rows?limit=3"));
        assertThat(catalogue.resource("db://tables/{table}/rows{?limit}")).map(Route::upstream).contains("db");
        assertThat(catalogue.resource("db://other")).isEmpty();
    }

    @Test
    void largeListsArePagedWithOpaqueCursors() {
        catalogue.register("big", "big");
        catalogue.replace("big", ListKind.TOOLS, IntStream.range(0, 25).mapToObj(i -> named("t" + i)).toList());

        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            Catalogue.Page page = catalogue.page(ListKind.TOOLS, cursor, 10);
            seen.addAll(names(page.items()));
            cursor = page.nextCursor();
            pages++;
        } while (cursor != null);

        assertThat(pages).isEqualTo(3);
        assertThat(seen).hasSize(25).doesNotHaveDuplicates();
        assertThatThrownBy(() -> catalogue.page(ListKind.TOOLS, "garbage!", 10))
                .isInstanceOf(McpErrorException.class).hasMessageContaining("invalid cursor");
    }

    @Test
    void listenersHearOnlyListsThatReallyChanged() {
        List<Set<ListKind>> heard = new ArrayList<>();
        catalogue.onChange(change -> heard.add(change.kinds()));
        catalogue.register("a", "a");
        catalogue.replace("a", ListKind.TOOLS, List.of(named("x")));
        catalogue.replace("a", ListKind.TOOLS, List.of(named("x")));
        catalogue.replace("a", ListKind.PROMPTS, List.of(named("p")));
        catalogue.clear("a");

        assertThat(heard).containsExactly(EnumSet.of(ListKind.TOOLS), EnumSet.of(ListKind.PROMPTS),
                EnumSet.of(ListKind.TOOLS, ListKind.PROMPTS));
    }

    @Test
    void eachProfileHearsOnlyOfTheListsThatChangedForItsHosts() {
        Profile review = new Profile("review", List.of("a"), CatalogueFilter.NONE, Profile.Search.OFF);
        Profile ops = new Profile("ops", List.of("b"), CatalogueFilter.NONE, Profile.Search.OFF);
        catalogue.register("a", "a");
        catalogue.register("b", "b");
        catalogue.profiles(new Profiles(Profile.WHOLE, Map.of("review", review, "ops", ops)));
        List<ListChange> heard = new ArrayList<>();
        catalogue.onChange(heard::add);

        catalogue.replace("b", ListKind.TOOLS, List.of(named("x")));
        Profile narrowed = new Profile("ops", List.of("b"), new CatalogueFilter(new NameFilter(List.of(), List.of("b__x")),
                NameFilter.ALL, NameFilter.ALL), Profile.Search.OFF);
        catalogue.profiles(new Profiles(Profile.WHOLE, Map.of("review", review, "ops", narrowed)));
        catalogue.profiles(new Profiles(Profile.WHOLE, Map.of("ops", narrowed)));

        assertThat(heard).containsExactly(
                new ListChange(Map.of("", Set.of(ListKind.TOOLS), "ops", Set.of(ListKind.TOOLS))),
                new ListChange(Map.of("ops", Set.of(ListKind.TOOLS))),
                new ListChange(Map.of("review", EnumSet.allOf(ListKind.class))));
    }

    @Test
    void aRemovedUpstreamTakesItsToolsAlong() {
        catalogue.register("a", "a");
        catalogue.replace("a", ListKind.TOOLS, List.of(named("x")));
        catalogue.remove("a");
        assertThat(catalogue.list(ListKind.TOOLS)).isEmpty();
        assertThat(catalogue.tool("a__x")).isEmpty();
    }
}
