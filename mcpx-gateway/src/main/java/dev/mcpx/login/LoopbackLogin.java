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
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code mcpx login}'s side of the authorization code flow (RFC 8252, a native app): a redirect
 * listener on the loopback interface at a port the system picks, the authorization URL opened
 * with {@code $BROWSER} (its one argument, never through a shell) or the platform's opener, and
 * always printed, then a wait for the redirect, bounded.
 */
public final class LoopbackLogin implements AuthorizationStep, AutoCloseable {

    private final String name;
    private final Duration timeout;
    private final Map<String, String> env;
    private final PrintStream out;
    private final CompletableFuture<URI> redirected = new CompletableFuture<>();
    private HttpServer server;

    /**
     * @param name    the upstream, for messages
     * @param timeout how long to wait for the user
     * @param out     where the URL is printed (stderr: stdout may belong to MCP)
     */
    public LoopbackLogin(String name, Duration timeout, Map<String, String> env, PrintStream out) {
        this.name = name;
        this.timeout = timeout;
        this.env = env;
        this.out = out;
    }

    @Override
    public synchronized URI redirectUri() {
        if (server == null) {
            try {
                server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            } catch (IOException e) {
                throw new NeedsLoginException("cannot listen for the login redirect on the loopback interface: " + e, e);
            }
            server.createContext("/callback", exchange -> {
                URI request = exchange.getRequestURI();
                byte[] page = ("<!doctype html><title>mcpx</title><p>mcpx: the login to " + escape(name)
                        + " is done; you can close this tab.</p>").getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
                exchange.sendResponseHeaders(200, page.length);
                try (OutputStream body = exchange.getResponseBody()) {
                    body.write(page);
                }
                redirected.complete(URI.create("http://127.0.0.1:" + server.getAddress().getPort()
                        + request.getRawPath() + (request.getRawQuery() == null ? "" : "?" + request.getRawQuery())));
            });
            server.start();
        }
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/callback");
    }

    @Override
    public URI authorize(URI authorizationUrl) {
        redirectUri();
        out.println("mcpx: to log in to " + name + ", open this URL in a browser:");
        out.println(authorizationUrl);
        open(authorizationUrl);
        try {
            return redirected.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new NeedsLoginException("no login came back from the browser within " + timeout.toSeconds()
                    + " s; run `mcpx login " + name + "` again", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NeedsLoginException("interrupted while waiting for the login", e);
        } catch (ExecutionException e) {
            throw new NeedsLoginException("the login redirect failed: " + e.getCause(), e.getCause());
        }
    }

    /** {@code $BROWSER URL}, else the platform's opener; a failure to open is not fatal: the URL is printed. */
    private void open(URI url) {
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
