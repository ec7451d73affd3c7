package dev.mcpx.auth;

import dev.mcpx.protocol.Json;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.concurrent.Executors;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The HTTP the flow makes itself: metadata GETs and form POSTs to token and registration
 * endpoints. Only {@code https}, or {@code http} to a loopback address (development); redirects
 * are not followed (a metadata document or a token answer that moves is not trusted).
 */
final class AuthHttp {

    private static final Duration TIMEOUT = Duration.ofSeconds(15);
    private static final int MAX_BODY = 1024 * 1024;

    /**
     * One client for every upstream's flow, made at the first request: each HTTP upstream has an
     * OAuth client in case it answers 401, and a client each was a selector thread each in every
     * gateway. It keeps no cookies or credentials, so no flow sees another's.
     */
    private static final class Shared {
        static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER).executor(Executors.newVirtualThreadPerTaskExecutor()).build();
    }

    /** An answer: its status, its JSON object body (empty when it had none), its headers. */
    record Answer(int status, ObjectNode body, HttpHeaders headers) {
        boolean ok() {
            return status / 100 == 2;
        }

        /**
         * {@code error: error_description} of an OAuth error answer, for messages; else an RFC 9457
         * problem's {@code title: detail} (what some servers answer instead).
         */
        String error() {
            String error = Json.text(body, "error");
            String description = Json.text(body, "error_description");
            if (error == null && description == null) {
                error = Json.text(body, "title");
                description = Json.text(body, "detail");
            }
            return "HTTP " + status + (error == null ? "" : " " + error) + (description == null ? "" : ": " + description);
        }
    }

    /** The JSON object at {@code url}, or empty when it answers anything but 2xx with a JSON object. */
    Optional<ObjectNode> getJson(URI url) throws AuthFailure {
        requireSecure(url, "metadata URL");
        Answer answer = send(HttpRequest.newBuilder(url).header("Accept", "application/json").GET());
        return answer.ok() && answer.body().size() > 0 ? Optional.of(answer.body()) : Optional.empty();
    }

    Answer postForm(URI url, Map<String, String> form, Map<String, String> headers) throws AuthFailure {
        requireSecure(url, "token endpoint");
        StringJoiner body = new StringJoiner("&");
        form.forEach((name, value) -> {
            if (value != null) {
                body.add(encode(name) + "=" + encode(value));
            }
        });
        HttpRequest.Builder request = HttpRequest.newBuilder(url)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        headers.forEach(request::header);
        return send(request);
    }

    Answer postJson(URI url, ObjectNode json) throws AuthFailure {
        requireSecure(url, "registration endpoint");
        return send(HttpRequest.newBuilder(url).header("Content-Type", "application/json")
                .header("Accept", "application/json").POST(HttpRequest.BodyPublishers.ofString(Json.write(json))));
    }

    private Answer send(HttpRequest.Builder request) throws AuthFailure {
        HttpRequest built = request.timeout(TIMEOUT).build();
        try {
            HttpResponse<byte[]> response = Shared.HTTP.send(built, HttpResponse.BodyHandlers.ofByteArray());
            byte[] bytes = response.body();
            ObjectNode body = Json.object();
            if (bytes.length > 0 && bytes.length <= MAX_BODY) {
                try {
                    if (Json.parse(new String(bytes, StandardCharsets.UTF_8)) instanceof ObjectNode object) {
                        body = object;
                    }
                } catch (JacksonException e) {
                    // not JSON: an answer without a body the flow can use
                }
            }
            return new Answer(response.statusCode(), body, response.headers());
        } catch (IOException e) {
            throw new AuthFailure(built.method() + " " + built.uri() + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AuthFailure("interrupted during " + built.method() + " " + built.uri(), e);
        }
    }

    /** https, or http to a loopback host: tokens and codes never travel in clear text off the machine. */
    static void requireSecure(URI url, String what) throws AuthFailure {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (scheme.equals("https") || scheme.equals("http") && isLoopback(url.getHost())) {
            return;
        }
        throw new AuthFailure("refusing " + what + " " + url + ": only https (or http to this machine) is allowed", null);
    }

    static boolean isLoopback(String host) {
        if (host == null) {
            return false;
        }
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (bare.equalsIgnoreCase("localhost")) {
            return true;
        }
        if (!bare.matches("[0-9.]+") && !bare.contains(":")) {
            return false; // never resolve a name from metadata just to judge it
        }
        try {
            return InetAddress.getByName(bare).isLoopbackAddress();
        } catch (IOException e) {
            return false;
        }
    }

    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** A text field of a metadata document, or null. */
    static String text(JsonNode node, String field) {
        return Json.text(node, field);
    }

    /** Why the flow could not go on; the client turns it into the error its caller sees. */
    static final class AuthFailure extends Exception {
        private static final long serialVersionUID = 1L;

        AuthFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
