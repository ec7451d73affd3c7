package dev.mcpx.login;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.mcpx.protocol.NeedsLoginException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The redirect listener of both logins (the terminal's and the one offered to hosts), over real
 * loopback HTTP: it takes the one redirect that carries the state of the URL it offered, once,
 * and gives up after its timeout.
 */
class LoopbackLoginTest {

    private static final URI AUTHORIZATION_URL = URI.create("https://as.example/authorize?client_id=mcpx&state=s-123&x=1");

    private final HttpClient browser = HttpClient.newHttpClient();

    @Test
    void onlyTheRedirectWithTheOfferedStateIsTakenAndOnlyOnce() throws Exception {
        AtomicReference<URI> offered = new AtomicReference<>();
        try (LoopbackLogin login = new LoopbackLogin("remote", Duration.ofSeconds(60), offered::set)) {
            URI redirect = login.redirectUri();
            assertThat(redirect.getScheme() + "://" + redirect.getHost()).isEqualTo("http://127.0.0.1");
            CompletableFuture<URI> back = CompletableFuture.supplyAsync(() -> login.authorize(AUTHORIZATION_URL));
            await().atMost(Duration.ofSeconds(30)).until(() -> offered.get() != null);
            assertThat(offered.get()).isEqualTo(AUTHORIZATION_URL);

            assertThat(get(redirect + "?code=forged&state=other").statusCode()).isEqualTo(400);
            await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> !back.isDone());
            HttpResponse<String> taken = get(redirect + "?code=c-1&state=s-123");
            assertThat(taken.statusCode()).isEqualTo(200);
            assertThat(taken.body()).contains("the login to remote is done");
            assertThat(back.get(30, TimeUnit.SECONDS).getRawQuery()).isEqualTo("code=c-1&state=s-123");

            assertThat(get(redirect + "?code=c-2&state=s-123").statusCode()).as("used once").isEqualTo(400);
        }
    }

    @Test
    void noRedirectWithinTheTimeoutIsANeedsLoginAndTheListenerCloses() throws Exception {
        URI redirect;
        try (LoopbackLogin login = new LoopbackLogin("remote", Duration.ofSeconds(1), url -> { })) {
            redirect = login.redirectUri();
            assertThatThrownBy(() -> login.authorize(AUTHORIZATION_URL)).isInstanceOf(NeedsLoginException.class)
                    .hasMessageContaining("within 1 s").hasMessageContaining("mcpx login remote");
        }
        assertThatThrownBy(() -> get(redirect + "?code=late&state=s-123")).isInstanceOf(ConnectException.class);
    }

    private HttpResponse<String> get(String uri) throws Exception {
        return browser.send(HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
