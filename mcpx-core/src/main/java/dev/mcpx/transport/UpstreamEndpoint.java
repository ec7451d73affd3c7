package dev.mcpx.transport;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Where an upstream lives: the closed set of ways mcpx reaches one. */
public sealed interface UpstreamEndpoint {

    /**
     * A subprocess speaking newline-delimited JSON on stdin/stdout. The child gets {@code env}
     * on top of a minimal safe base environment, or the gateway's whole environment when
     * {@code inheritEnvironment} is set.
     */
    record Stdio(String command, List<String> args, Map<String, String> env, Path cwd,
                 boolean inheritEnvironment) implements UpstreamEndpoint {
        public Stdio {
            args = List.copyOf(args);
            env = Map.copyOf(env);
        }

        public static Stdio of(String command, String... args) {
            return new Stdio(command, List.of(args), Map.of(), null, false);
        }

        /** Env values are often secrets (API keys): only their names are shown. */
        @Override
        public String toString() {
            return "Stdio[command=" + command + ", args=" + args + ", env=" + env.keySet() + ", cwd=" + cwd
                    + ", inheritEnvironment=" + inheritEnvironment + "]";
        }
    }

    /** An HTTP upstream; {@code kind} says which HTTP transport, or AUTO for era detection. */
    record Http(URI url, Map<String, String> headers, HttpKind kind, HttpAuthorization authorization)
            implements UpstreamEndpoint {
        public Http {
            headers = Map.copyOf(headers);
            authorization = authorization == null ? HttpAuthorization.NONE : authorization;
        }

        public Http(URI url, Map<String, String> headers, HttpKind kind) {
            this(url, headers, kind, HttpAuthorization.NONE);
        }

        /** The same endpoint, its requests authorized by {@code value}. */
        public Http withAuthorization(HttpAuthorization value) {
            return new Http(url, headers, kind, value);
        }

        public static Http of(String url) {
            return new Http(URI.create(url), Map.of(), HttpKind.AUTO);
        }

        /** Header values are often secrets (Authorization): only their names are shown. */
        @Override
        public String toString() {
            return "Http[url=" + url + ", headers=" + headers.keySet() + ", kind=" + kind + "]";
        }
    }

    enum HttpKind {
        /** Detect: modern Streamable HTTP, then legacy Streamable HTTP, then HTTP+SSE. */
        AUTO,
        /** Streamable HTTP, either era (detected). */
        STREAMABLE,
        /** The deprecated 2024-11-05 HTTP+SSE transport. */
        SSE
    }
}
