package dev.mcpx.config;

import dev.mcpx.auth.OAuthSettings;
import dev.mcpx.transport.UpstreamEndpoint;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An entry's {@code "oauth"}: how mcpx authorizes itself at an OAuth-protected HTTP upstream.
 * On by default for a URL server without its own {@code Authorization} header (it costs nothing
 * until the upstream answers 401); {@code "oauth": false} turns it off.
 */
final class OAuthParser {

    private static final Set<String> KEYS = Set.of("client_id", "client_secret", "token_endpoint_auth_method", "issuer",
            "client_metadata_url", "scopes", "grant", "client_name");

    private OAuthParser() {
    }

    /** The settings, or null when the upstream gets no OAuth client. */
    static OAuthSettings parse(ObjectNode entry, UpstreamEndpoint endpoint, Fields fields, VariableExpander expander) {
        JsonNode node = entry.get("oauth");
        if (!(endpoint instanceof UpstreamEndpoint.Http http)) {
            if (node != null) {
                throw fields.problem("\"oauth\" only applies to a \"url\" server, not a \"command\" one");
            }
            return null;
        }
        boolean ownAuthorization = http.headers().keySet().stream().anyMatch(name -> name.equalsIgnoreCase("Authorization"));
        if (node == null || node.isNull()) {
            return ownAuthorization ? null : OAuthSettings.defaults();
        }
        if (node.isBoolean()) {
            return node.asBoolean() && !ownAuthorization ? OAuthSettings.defaults() : null;
        }
        if (!(node instanceof ObjectNode oauth)) {
            throw fields.problem("\"oauth\" must be an object (or false), not " + Fields.kind(node));
        }
        if (ownAuthorization) {
            throw fields.problem("has both \"oauth\" and an \"Authorization\" header; give one");
        }
        for (String key : oauth.propertyNames()) {
            if (!KEYS.contains(key)) {
                throw fields.problem("\"oauth\" has unknown key \"" + key + "\" (known: " + String.join(", ",
                        KEYS.stream().sorted().toList()) + ")");
            }
        }
        String grant = expand(fields.string(oauth, "grant"), "oauth.grant", expander);
        OAuthSettings.Grant parsedGrant = switch (grant == null ? "authorization_code" : grant.toLowerCase(Locale.ROOT)) {
            case "authorization_code" -> OAuthSettings.Grant.AUTHORIZATION_CODE;
            case "client_credentials" -> OAuthSettings.Grant.CLIENT_CREDENTIALS;
            default -> throw fields.problem("\"oauth.grant\" must be \"authorization_code\" or \"client_credentials\", not \""
                    + grant + "\"");
        };
        String clientId = expand(fields.string(oauth, "client_id"), "oauth.client_id", expander);
        String secret = expand(fields.string(oauth, "client_secret"), "oauth.client_secret", expander);
        if (parsedGrant == OAuthSettings.Grant.CLIENT_CREDENTIALS && (clientId == null || secret == null)) {
            throw fields.problem("\"oauth.grant\": \"client_credentials\" needs \"client_id\" and \"client_secret\"");
        }
        String metadataUrl = expand(fields.string(oauth, "client_metadata_url"), "oauth.client_metadata_url", expander);
        if (metadataUrl != null && !metadataUrl.startsWith("https://")) {
            throw fields.problem("\"oauth.client_metadata_url\" must be an https URL, not \"" + metadataUrl + "\"");
        }
        List<String> scopes = fields.strings(oauth, "scopes").stream().map(s -> expander.expand(s, "oauth.scopes")).toList();
        try {
            return new OAuthSettings(clientId, secret,
                    expand(fields.string(oauth, "token_endpoint_auth_method"), "oauth.token_endpoint_auth_method", expander),
                    expand(fields.string(oauth, "issuer"), "oauth.issuer", expander), metadataUrl, scopes,
                    expand(fields.string(oauth, "client_name"), "oauth.client_name", expander), parsedGrant);
        } catch (IllegalArgumentException e) {
            throw fields.problem("\"oauth\": " + e.getMessage());
        }
    }

    private static String expand(String value, String where, VariableExpander expander) {
        return value == null ? null : expander.expand(value, where);
    }
}
