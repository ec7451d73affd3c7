package dev.mcpx.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real OAuth 2 / OpenID Connect authorization server (the npm package oauth2-mock-server,
 * installed by {@code .tools/setup}) as a child process on a port the OS picks. It approves
 * every authorization at once and redirects; its tokens are RS256 JWTs with an {@code exp}.
 */
public final class OAuthServer implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("oauth: listening on (\\S+)");
    private static final Pattern ACCESS_TOKEN = Pattern.compile("\"access_token\"\\s*:\\s*\"([^\"]+)\"");
    private static final long START_SECONDS = 60;

    private final List<String> log = new ArrayList<>();
    private final CompletableFuture<URI> listening = new CompletableFuture<>();
    private final Process process;

    private OAuthServer(Process process) {
        this.process = process;
    }

    /** Starts it and returns once it listens. */
    public static OAuthServer start(NodeTools tools) {
        Path packageDir = NodeTools.oauthServer().orElseThrow(() -> new IllegalStateException(
                "oauth2-mock-server not found: run .tools/setup from the repo root, or set MCPX_OAUTH_SERVER"));
        Path script;
        try (InputStream in = OAuthServer.class.getResourceAsStream("oauth-server.mjs")) {
            script = Files.createTempFile("mcpx-oauth-server", ".mjs");
            Files.write(script, in.readAllBytes());
            script.toFile().deleteOnExit();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the OAuth server script", e);
        }
        ProcessBuilder builder = new ProcessBuilder(tools.node().toString(), script.toString(), packageDir.toString())
                .redirectErrorStream(true);
        OAuthServer server;
        try {
            server = new OAuthServer(builder.start());
        } catch (IOException e) {
            throw new UncheckedIOException("could not start oauth2-mock-server", e);
        }
        Thread.ofVirtual().name("oauth-server-output").start(server::drain);
        try {
            server.listening.get(START_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            server.close();
            throw new IllegalStateException("oauth2-mock-server did not listen: "
                    + (e instanceof TimeoutException ? "nothing said within " + START_SECONDS + " s" : e.getCause().getMessage())
                    + "; its output:\n" + server.log(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            server.close();
            throw new IllegalStateException("interrupted while oauth2-mock-server started", e);
        }
        return server;
    }

    /** The issuer, {@code http://127.0.0.1:PORT} (its metadata at {@code /.well-known/openid-configuration}). */
    public URI issuer() {
        return listening.join();
    }

    /** How many token requests of {@code grantType} it answered. */
    public int tokenRequests(String grantType) {
        synchronized (log) {
            return (int) log.stream().filter(line -> line.startsWith("oauth: token grant_type=" + grantType + " ")).count();
        }
    }

    /**
     * An access token from the client credentials grant, for {@code resource} (its audience),
     * with {@code claims} added (an integer value becomes a number: {@code exp}, say).
     */
    public String accessToken(String resource, Map<String, String> claims) {
        StringBuilder form = new StringBuilder("grant_type=client_credentials&scope=mcp&client_id=test");
        if (resource != null) {
            form.append("&resource=").append(URLEncoder.encode(resource, StandardCharsets.UTF_8));
        }
        claims.forEach((name, value) -> form.append("&claim_").append(URLEncoder.encode(name, StandardCharsets.UTF_8))
                .append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8)));
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(issuer().resolve("/token"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(form.toString())).build(), HttpResponse.BodyHandlers.ofString());
            Matcher token = ACCESS_TOKEN.matcher(response.body());
            if (response.statusCode() != 200 || !token.find()) {
                throw new IllegalStateException("no access token: HTTP " + response.statusCode() + " " + response.body());
            }
            return token.group(1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Adds a signing key and returns once it is in use: from then on tokens are signed with the keys in turn. */
    public void rotateKey() {
        int before = count("oauth: rotated");
        try {
            process.getOutputStream().write("rotate\n".getBytes(StandardCharsets.UTF_8));
            process.getOutputStream().flush();
        } catch (IOException e) {
            throw new UncheckedIOException("oauth2-mock-server is gone: " + log(), e);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
        synchronized (log) {
            while (count("oauth: rotated") == before) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0 || !process.isAlive()) {
                    throw new IllegalStateException("oauth2-mock-server did not add a key: " + String.join("\n", log));
                }
                try {
                    log.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
            }
        }
    }

    private int count(String prefix) {
        synchronized (log) {
            return (int) log.stream().filter(line -> line.startsWith(prefix)).count();
        }
    }

    /** Everything it wrote. */
    public String log() {
        synchronized (log) {
            return String.join("\n", log);
        }
    }

    private void drain() {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                synchronized (log) {
                    log.add(line);
                    log.notifyAll();
                }
                Matcher matcher = LISTENING.matcher(line);
                if (matcher.matches()) {
                    listening.complete(URI.create(matcher.group(1)));
                }
            }
        } catch (IOException e) {
            // the process ended
        }
        listening.completeExceptionally(new IllegalStateException("oauth2-mock-server exited"));
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
