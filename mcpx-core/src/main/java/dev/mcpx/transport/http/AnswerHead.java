package dev.mcpx.transport.http;

import java.util.Map;

/**
 * The status line and headers of a POST's answer, whichever client read them.
 *
 * @param headers           the answer's headers by lower-case name, the first value of each
 * @param sentAuthorization the request's {@code Authorization} header, or null
 */
record AnswerHead(int status, Map<String, String> headers, String sentAuthorization) {

    AnswerHead {
        headers = Map.copyOf(headers);
    }

    /** The first value of header {@code name} (any case), or null. */
    String header(String name) {
        return headers.get(name.toLowerCase(java.util.Locale.ROOT));
    }

    boolean successful() {
        return status / 100 == 2;
    }

    static AnswerHead of(org.eclipse.jetty.client.Response response) {
        Map<String, String> headers = new java.util.HashMap<>();
        for (org.eclipse.jetty.http.HttpField field : response.getHeaders()) {
            headers.putIfAbsent(field.getLowerCaseName(), field.getValue());
        }
        return new AnswerHead(response.getStatus(), headers, response.getRequest().getHeaders().get("Authorization"));
    }
}
