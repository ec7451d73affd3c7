package dev.mcpx.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpx.catalogue.CatalogueFilter;
import dev.mcpx.catalogue.NameFilter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The filter keys of an {@code mcpServers} entry, and what a mistake in them says. */
class FilterConfigTest {

    @TempDir
    Path dir;

    private UpstreamConfig entry(String json) {
        return new ConfigLoader(Map.of()).parse(json.replace('\'', '"'), dir.resolve("mcpx.json")).upstreams().get(0);
    }

    @Test
    void allowDenyListsPerKindAndDisabledToolsAsDenials() {
        UpstreamConfig fs = entry("""
                {'mcpServers': {'fs': {'command': 'fs',
                  'tools': {'allow': ['read_*', 'list_*'], 'deny': ['read_secret*']},
                  'prompts': {'deny': ['*']},
                  'resources': {'allow': ['file:///srv/*']},
                  'disabledTools': ['list_hidden']}}}""");

        assertThat(fs.filter()).isEqualTo(new CatalogueFilter(
                new NameFilter(List.of("read_*", "list_*"), List.of("read_secret*", "list_hidden")),
                new NameFilter(List.of(), List.of("*")),
                new NameFilter(List.of("file:///srv/*"), List.of())));
        assertThat(fs.filter().tools().admits("read_file")).isTrue();
        assertThat(fs.filter().tools().admits("read_secrets")).isFalse();
        assertThat(fs.filter().tools().admits("list_hidden")).isFalse();
        assertThat(fs.filter().tools().admits("write_file")).as("not allowed").isFalse();
        assertThat(fs.filter().prompts().admits("anything")).isFalse();
    }

    @Test
    void anEntryWithoutFilterKeysShowsEverything() {
        assertThat(entry("{'mcpServers': {'a': {'command': 'a'}}}").filter()).isEqualTo(CatalogueFilter.NONE);
    }

    @Test
    void globsMatchWholeNamesWithStarAndQuestionMarkOnly() {
        NameFilter filter = new NameFilter(List.of("get_?", "a.b*"), List.of());
        assertThat(filter.admits("get_x")).isTrue();
        assertThat(filter.admits("get_xy")).isFalse();
        assertThat(filter.admits("a.bc")).isTrue();
        assertThat(filter.admits("aXbc")).as("a dot is a dot, not a regex").isFalse();
        assertThat(filter.admits("prefix_get_x")).as("the whole name").isFalse();
    }

    @Test
    void aMisshapenFilterNamesTheEntryAndTheKey() {
        assertThatThrownBy(() -> entry("{'mcpServers': {'fs': {'command': 'fs', 'tools': ['read_*']}}}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("fs").hasMessageContaining("\"tools\" must be an object");
        assertThatThrownBy(() -> entry("{'mcpServers': {'fs': {'command': 'fs', 'tools': {'allowed': ['x']}}}}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("\"tools.allowed\" is not a filter key");
        assertThatThrownBy(() -> entry("{'mcpServers': {'fs': {'command': 'fs', 'tools': {'deny': 'x'}}}}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("\"tools.deny\" must be an array of strings");
        assertThatThrownBy(() -> entry("{'mcpServers': {'fs': {'command': 'fs', 'disabledTools': [1]}}}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("disabledTools[0]");
    }
}
