package dev.mcpx.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every HTTP upstream has an OAuth client in case it answers 401; most never do, so an OAuth
 * client starts no HTTP client (a selector thread each) of its own.
 */
class AuthHttpSharingTest {

    @Test
    void eightUpstreamsOAuthClientsStartNoHttpClientEach() {
        long before = jdkClientSelectors();
        List<OAuthClient> clients = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            clients.add(OAuthClient.builder(URI.create("http://127.0.0.1:9/mcp")).name("u" + i)
                    .settings(OAuthSettings.defaults()).store(TokenStore.inMemory()).build());
        }

        assertThat(clients).hasSize(8);
        // at most the shared one, should this test run first
        assertThat(jdkClientSelectors()).isLessThanOrEqualTo(before + 1);
    }

    /** The JDK's HTTP client runs one thread of this name per client. */
    private static long jdkClientSelectors() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().matches("HttpClient-\\d+-SelectorManager")).count();
    }
}
