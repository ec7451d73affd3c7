package dev.mcpx.transport.http;

import dev.mcpx.protocol.AuthorizationRequiredException;
import dev.mcpx.transport.HttpAuthorization;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Locale;
import java.util.function.Supplier;

/** The two answers that are about a request's credentials, and the headers that carry them. */
final class Unauthorized {

    private Unauthorized() {
    }

    /** Adds what {@code authorization} says the request needs. */
    static HttpRequest.Builder authorize(HttpRequest.Builder builder, HttpAuthorization authorization, String httpMethod,
                                         URI uri) {
        authorization.headers(httpMethod, uri).forEach(builder::setHeader);
        return builder;
    }

    /**
     * {@code handler}, telling {@code authorization} of the {@code DPoP-Nonce} of any answer, a
     * successful one included, before its body is read.
     */
    static <T> HttpResponse.BodyHandler<T> noticingNonce(HttpAuthorization authorization, HttpResponse.BodyHandler<T> handler) {
        return info -> {
            info.headers().firstValue("DPoP-Nonce").ifPresent(authorization::nonceOffered);
            return handler.apply(info);
        };
    }

    /**
     * A 401, or a 403 whose challenge says {@code insufficient_scope}, as the refusal the client's
     * recovery acts on; null for any other answer.
     */
    static AuthorizationRequiredException of(HttpResponse<?> response) {
        return of(response.statusCode(), response.headers().firstValue("WWW-Authenticate").orElse(null),
                () -> response.request().headers().firstValue("Authorization").orElse(null),
                response.headers().firstValue("DPoP-Nonce").orElse(null));
    }

    static AuthorizationRequiredException ofRequestAnswer(AnswerHead response) {
        return of(response.status(), response.header("WWW-Authenticate"), response::sentAuthorization,
                response.header("DPoP-Nonce"));
    }

    static AuthorizationRequiredException ofRequestAnswer(org.eclipse.jetty.client.Response response) {
        return ofRequestAnswer(AnswerHead.of(response));
    }

    private static AuthorizationRequiredException of(int status, String challenge, Supplier<String> sentAuthorization,
                                                     String dpopNonce) {
        boolean insufficientScope = status == 403 && challenge != null
                && challenge.toLowerCase(Locale.ROOT).contains("insufficient_scope");
        if (status != 401 && !insufficientScope) {
            return null;
        }
        return new AuthorizationRequiredException(status, challenge, sentAuthorization.get(), dpopNonce);
    }
}
