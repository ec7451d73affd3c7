package dev.mcpx.login;

import com.sun.net.httpserver.HttpServer;
import dev.mcpx.auth.AuthorizationStep;
import dev.mcpx.protocol.NeedsLoginException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The user's side of the authorization code flow (RFC 8252, a native app): a redirect listener
 * on the loopback interface at a port the system picks, the authorization URL offered to the user,
 * then a wait for the redirect, bounded. {@code mcpx login} offers the URL by opening it with
 * {@code $BROWSER} (its one argument, never through a shell) or the platform's opener, and
 * printing it; a gateway offers it to a host through URL-mode elicitation. The listener takes one
 * redirect, the one carrying the {@code state} of the URL it offered: any other request gets an
 * error and changes nothing.
 */
public final class LoopbackLogin implements AuthorizationStep, AutoCloseable {

    private final String name;
    private final Duration timeout;
    private final Consumer<URI> offer;
    private final CompletableFuture<URI> redirected = new CompletableFuture<>();
    private final AtomicBoolean taken = new AtomicBoolean();
    private volatile String expectedState;
    private HttpServer server;

    /**
     * {@code mcpx login}'s: the URL opened in a browser and printed.
     *
     * @param name    the upstream, for messages
     * @param timeout how long to wait for the user
     * @param out     where the URL is printed (stderr: stdout may belong to MCP)
     */
    public LoopbackLogin(String name, Duration timeout, Map<String, String> env, PrintStream out) {
        this(name, timeout, url -> {
            out.println("mcpx: to log in to " + name + ", open this URL in a browser:");
            out.println(url);
            open(url, env, out);
        });
    }

    /** {@code offer} shows the user the authorization URL (it must not block); the wait for the redirect is this one's. */
    public LoopbackLogin(String name, Duration timeout, Consumer<URI> offer) {
        this.name = name;
        this.timeout = timeout;
        this.offer = offer;
    }

    @Override
    public synchronized URI redirectUri() {
        if (server == null) {
            try {
                server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            } catch (IOException e) {
                throw new NeedsLoginException("cannot listen for the login redirect on the loopback interface: " + e, e);
            }
            int port = server.getAddress().getPort();
            server.createContext("/callback", exchange -> {
                URI request = exchange.getRequestURI();
                URI back = URI.create("http://127.0.0.1:" + port + request.getRawPath()
                        + (request.getRawQuery() == null ? "" : "?" + request.getRawQuery()));
                String expected = expectedState;
                boolean ours = expected != null && expected.equals(queryValue(back, "state")) && taken.compareAndSet(false, true);
                String error = ours ? queryValue(back, "error") : null;
                String said = !ours ? "this is not the redirect of a login mcpx is waiting for."
                        : error != null ? "the login to " + escape(name) + " was refused (" + escape(error) + ")."
                        : "the login to " + escape(name) + " is done; you can close this tab.";
                byte[] page = ("<!doctype html><title>mcpx</title><p>mcpx: " + said + "</p>").getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
                exchange.sendResponseHeaders(ours ? 200 : 400, page.length);
                try (OutputStream body = exchange.getResponseBody()) {
                    body.write(page);
                } finally {
                    // after the page: the flow closes this listener as soon as it has the redirect
                    if (ours) {
                        redirected.complete(back);
                    }
                }
            });
            server.start();
        }
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/callback");
    }

    @Override
    public URI authorize(URI authorizationUrl) {
        redirectUri();
        expectedState = queryValue(authorizationUrl, "state");
        offer.accept(authorizationUrl);
        try {
            return redirected.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new NeedsLoginException("no login to " + name + " came back from the browser within "
                    + timeout.toSeconds() + " s; try again, or run `mcpx login " + name + "`", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NeedsLoginException("interrupted while waiting for the login", e);
        } catch (ExecutionException e) {
            throw new NeedsLoginException("the login redirect failed: " + e.getCause(), e.getCause());
        }
    }

    /** {@code $BROWSER URL}, else the platform's opener; a failure to open is not fatal: the URL is printed. */
    private static void open(URI url, Map<String, String> env, PrintStream out) {
        String browser = env.get("BROWSER");
        List<String> command = browser != null && !browser.isBlank() ? List.of(browser, url.toString()) : opener(url);
        if (command == null) {
            return;
        }
        try {
            new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            out.println("mcpx: could not start " + command.getFirst() + " (" + e.getMessage() + "); open the URL yourself");
        }
    }

    private static List<String> opener(URI url) {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (os.contains("mac")) {
            return List.of("open", url.toString());
        }
        if (os.contains("win")) {
            return List.of("rundll32", "url.dll,FileProtocolHandler", url.toString());
        }
        return List.of("xdg-open", url.toString());
    }

    /** The parameter {@code name} of {@code uri}'s query, or null. */
    private static String queryValue(URI uri, String name) {
        String query = uri.getRawQuery();
        if (query == null) {
            return null;
        }
        for (String pair : query.split("&")) {
            if (pair.startsWith(name + "=")) {
                return URLDecoder.decode(pair.substring(name.length() + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            server.stop(0);
            server = null;
        }
    }
}
