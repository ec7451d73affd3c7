package dev.mcpx.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpx.catalogue.CatalogueFilter;
import dev.mcpx.catalogue.NameFilter;
import dev.mcpx.catalogue.Profile;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mcpx.profiles}, {@code mcpx.search} and a token's {@code profile}, and what a mistake in them says. */
class ProfilesConfigTest {

    @TempDir
    Path dir;

    private GatewayConfig load(String json) {
        return new ConfigLoader(Map.of()).parse(json.replace('\'', '"'), dir.resolve("mcpx.json"));
    }

    @Test
    void profilesWithServersFiltersAndSearchAndATokenBoundToOne() {
        GatewayConfig config = load("""
                {'mcpx': {'profiles': {
                    'review': {'servers': ['github', 'fs'], 'tools': {'deny': ['fs__write_*']}},
                    'big': {'search': {'pin': ['github__create_issue']}}},
                  'search': true,
                  'tokens': {'alice': {'token': 'a-secret', 'profile': 'review'}, 'ops': 'o-secret'}},
                 'mcpServers': {'github': {'command': 'gh'}, 'fs': {'command': 'fs'}}}""");

        assertThat(config.profiles().named().get("review")).isEqualTo(new Profile("review", List.of("github", "fs"),
                new CatalogueFilter(new NameFilter(List.of(), List.of("fs__write_*")), NameFilter.ALL, NameFilter.ALL),
                Profile.Search.OFF));
        assertThat(config.profiles().named().get("big").search())
                .isEqualTo(new Profile.Search(true, List.of("github__create_issue")));
        assertThat(config.profiles().whole().search().enabled()).as("mcpx.search: /mcp itself").isTrue();
        assertThat(config.tokens()).extracting(FrontToken::name, FrontToken::profile)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("alice", "review"),
                        org.assertj.core.groups.Tuple.tuple("ops", null));
    }

    @Test
    void withoutProfilesHostsSeeTheWholeCatalogue() {
        GatewayConfig config = load("{'mcpServers': {'a': {'command': 'a'}}}");

        assertThat(config.profiles().named()).isEmpty();
        assertThat(config.profiles().whole()).isEqualTo(Profile.WHOLE);
    }

    @Test
    void mistakesNameTheKey() {
        assertThatThrownBy(() -> load("{'mcpx': {'profiles': {'a/b': {}}}, 'mcpServers': {}}"))
                .hasMessageContaining("a/b").hasMessageContaining("/mcp/");
        assertThatThrownBy(() -> load("{'mcpx': {'profiles': {'r': {'server': ['x']}}}, 'mcpServers': {}}"))
                .hasMessageContaining("mcpx.profiles.r").hasMessageContaining("server");
        assertThatThrownBy(() -> load("{'mcpx': {'profiles': {'r': {'tools': {'hide': []}}}}, 'mcpServers': {}}"))
                .hasMessageContaining("mcpx.profiles.r.tools.hide");
        assertThatThrownBy(() -> load("{'mcpx': {'search': 'yes'}, 'mcpServers': {}}"))
                .hasMessageContaining("mcpx.search");
        assertThatThrownBy(() -> load("{'mcpx': {'profiles': {'r': {'search': {'pins': []}}}}, 'mcpServers': {}}"))
                .hasMessageContaining("mcpx.profiles.r.search").hasMessageContaining("pins");
    }
}
