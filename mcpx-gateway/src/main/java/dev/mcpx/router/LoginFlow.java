package dev.mcpx.router;

import dev.mcpx.client.Cancellation;
import dev.mcpx.client.McpClient;
import dev.mcpx.login.LoopbackLogin;
import dev.mcpx.pool.Upstream;
import dev.mcpx.pool.UpstreamState;
import java.net.URI;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One authorization code flow for one upstream, run as {@code mcpx login} runs it (a client of
 * the upstream connecting with a {@link LoopbackLogin}), its authorization URL offered to hosts
 * instead of a browser. Once the tokens are stored the upstream connects at once.
 */
final class LoginFlow {

    private static final Logger LOG = LoggerFactory.getLogger(LoginFlow.class);
    private static final Duration POLL = Duration.ofMillis(100);

    /** How the flow stands for a host that asks: the URL to offer, logged in already, or failed. */
    sealed interface Stage {
        record Offer(URI authorizationUrl) implements Stage {
        }

        record LoggedIn() implements Stage {
        }

        record Failed(String why) implements Stage {
        }
    }

    /** Names the flow to hosts (elicitationId, requestState): unguessable, new for every flow. */
    final String id = UUID.randomUUID().toString();
    final Upstream upstream;
    private final CompletableFuture<URI> authorizationUrl = new CompletableFuture<>();
    /** The flow's end: a null reason when the upstream is up with the new tokens, else why not. */
    private final CompletableFuture<String> ended = new CompletableFuture<>();

    LoginFlow(Upstream upstream) {
        this.upstream = upstream;
    }

    /** Runs the flow on this thread, waiting for the user at most {@code timeout}. */
    void run(Duration timeout) {
        String name = upstream.name();
        try (LoopbackLogin login = new LoopbackLogin(name, timeout, authorizationUrl::complete);
             McpClient client = upstream.config().clientBuilder(login)
                     .requestTimeout(timeout.plus(upstream.config().requestTimeout())).build().connect()) {
            LOG.info("{}: logged in through a host ({})", name, client.server().name());
        } catch (RuntimeException e) {
            LOG.info("{}: the login offered to hosts did not finish: {}", name, e.getMessage());
            ended.complete(e.getMessage() == null ? e.toString() : e.getMessage());
            return;
        }
        UpstreamState state = upstream.connectNow();
        ended.complete(state == UpstreamState.UP ? null : "logged in, but the upstream is " + state.label()
                + ": " + upstream.status().reason());
    }

    boolean finished() {
        return ended.isDone();
    }

    /**
     * Waits up to {@code max} (and no longer than the host's call lives) for the URL to offer,
     * or for the flow to end without needing the user.
     */
    Stage awaitStage(Duration max, Cancellation cancellation) {
        long deadline = System.nanoTime() + max.toNanos();
        CompletableFuture<Object> either = CompletableFuture.anyOf(authorizationUrl, ended);
        while (true) {
            if (authorizationUrl.isDone() && !authorizationUrl.isCompletedExceptionally()) {
                return new Stage.Offer(authorizationUrl.join());
            }
            if (ended.isDone()) {
                String why = ended.join();
                return why == null ? new Stage.LoggedIn() : new Stage.Failed(why);
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || cancellation != null && cancellation.isCancelled()) {
                return new Stage.Failed("the login to " + upstream.name() + " did not get as far as an authorization URL within "
                        + max.toSeconds() + " s");
            }
            try {
                either.get(Math.min(left, POLL.toNanos()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException | ExecutionException e) {
                // look again
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Stage.Failed("interrupted");
            }
        }
    }

    /** Waits until the flow ended (its own timeout bounds it) or the host's call is cancelled; null: logged in. */
    String awaitEnd(Cancellation cancellation) {
        while (!ended.isDone()) {
            if (cancellation != null && cancellation.isCancelled()) {
                return "the call was cancelled";
            }
            try {
                ended.get(POLL.toNanos(), TimeUnit.NANOSECONDS);
            } catch (TimeoutException | ExecutionException e) {
                // look again
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "interrupted";
            }
        }
        return ended.join();
    }

    /** Runs {@code then} once the upstream is up with the new tokens (at once if it is already); never on failure. */
    void whenLoggedIn(Runnable then) {
        ended.thenAccept(why -> {
            if (why == null) {
                then.run();
            }
        });
    }
}
