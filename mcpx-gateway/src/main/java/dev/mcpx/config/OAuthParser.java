package dev.mcpx.config;

import dev.mcpx.auth.IdentityAssertion;
import dev.mcpx.auth.IdentityProvider;
import dev.mcpx.auth.OAuthSettings;
import dev.mcpx.auth.SigningKey;
import dev.mcpx.transport.UpstreamEndpoint;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
            "client_metadata_url", "scopes", "grant", "client_name", "private_key", "private_key_file", "signing_algorithm",
            "key_id", "dpop", "assertion", "assertion_file", "id_token", "id_token_file", "idp");
    private static final Set<String> IDP_KEYS = Set.of("token_endpoint", "client_id", "client_secret");

    private OAuthParser() {
    }

    /** The settings, or null when the upstream gets no OAuth client; relative files are resolved against {@code base}. */
    static OAuthSettings parse(ObjectNode entry, UpstreamEndpoint endpoint, Fields fields, VariableExpander expander,
                               Path base) {
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
        rejectUnknown(oauth, KEYS, "oauth", fields);
        Strings strings = new Strings(oauth, fields, expander, "oauth.");
        String grant = strings.get("grant");
        OAuthSettings.Grant parsedGrant = switch (grant == null ? "authorization_code" : grant.toLowerCase(Locale.ROOT)) {
            case "authorization_code" -> OAuthSettings.Grant.AUTHORIZATION_CODE;
            case "client_credentials" -> OAuthSettings.Grant.CLIENT_CREDENTIALS;
            case "jwt_bearer" -> OAuthSettings.Grant.JWT_BEARER;
            case "enterprise_managed" -> OAuthSettings.Grant.ENTERPRISE_MANAGED;
            default -> throw fields.problem("\"oauth.grant\" must be \"authorization_code\", \"client_credentials\","
                    + " \"jwt_bearer\" or \"enterprise_managed\", not \"" + grant + "\"");
        };
        String clientId = strings.get("client_id");
        String secret = strings.get("client_secret");
        SigningKey key = key(strings, fields, base);
        if (parsedGrant == OAuthSettings.Grant.CLIENT_CREDENTIALS && (clientId == null || secret == null && key == null)) {
            throw fields.problem("\"oauth.grant\": \"client_credentials\" needs \"client_id\" and \"client_secret\""
                    + " (or a \"private_key_file\" for private_key_jwt)");
        }
        if (parsedGrant == OAuthSettings.Grant.ENTERPRISE_MANAGED && (clientId == null || secret == null && key == null)) {
            throw fields.problem("\"oauth.grant\": \"enterprise_managed\" needs the \"client_id\" (and \"client_secret\""
                    + " or \"private_key_file\") registered at the MCP server's authorization server");
        }
        String metadataUrl = strings.get("client_metadata_url");
        if (metadataUrl != null && !metadataUrl.startsWith("https://")) {
            throw fields.problem("\"oauth.client_metadata_url\" must be an https URL, not \"" + metadataUrl + "\"");
        }
        List<String> scopes = fields.strings(oauth, "scopes").stream().map(s -> expander.expand(s, "oauth.scopes")).toList();
        Boolean dpop = fields.bool(oauth, "dpop");
        IdentityAssertion assertion = switch (parsedGrant) {
            case JWT_BEARER -> assertion(strings, "assertion", "the workload's JWT", base, fields);
            case ENTERPRISE_MANAGED -> assertion(strings, "id_token", "the user's ID token", base, fields);
            default -> {
                for (String name : List.of("assertion", "assertion_file", "id_token", "id_token_file", "idp")) {
                    if (oauth.has(name)) {
                        throw fields.problem("\"oauth." + name + "\" only applies to \"grant\": \""
                                + (name.startsWith("assertion") ? "jwt_bearer" : "enterprise_managed") + "\"");
                    }
                }
                yield null;
            }
        };
        IdentityProvider idp = parsedGrant == OAuthSettings.Grant.ENTERPRISE_MANAGED ? idp(oauth, fields, expander) : null;
        try {
            return new OAuthSettings(clientId, secret, strings.get("token_endpoint_auth_method"), strings.get("issuer"),
                    metadataUrl, scopes, strings.get("client_name"), parsedGrant, key,
                    dpop == null ? null : dpop ? OAuthSettings.Dpop.ALWAYS : OAuthSettings.Dpop.NEVER, assertion, idp);
        } catch (IllegalArgumentException e) {
            throw fields.problem("\"oauth\": " + e.getMessage());
        }
    }

    /** The private_key_jwt key, from {@code private_key_file} or {@code private_key} (PEM text), or null. */
    private static SigningKey key(Strings strings, Fields fields, Path base) {
        String file = strings.get("private_key_file");
        String inline = strings.get("private_key");
        if (file != null && inline != null) {
            throw fields.problem("has both \"oauth.private_key\" and \"oauth.private_key_file\"; give one");
        }
        if (file == null && inline == null) {
            for (String name : List.of("signing_algorithm", "key_id")) {
                if (strings.get(name) != null) {
                    throw fields.problem("\"oauth." + name + "\" needs a \"private_key_file\" (or \"private_key\")");
                }
            }
            return null;
        }
        String pem = inline;
        if (file != null) {
            Path path = base.resolve(file).normalize();
            try {
                pem = Files.readString(path, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw fields.problem("\"oauth.private_key_file\": cannot read " + path + ": " + e.getMessage());
            }
        }
        try {
            return SigningKey.fromPem(pem, strings.get("signing_algorithm"), strings.get("key_id"));
        } catch (IllegalArgumentException e) {
            throw fields.problem("\"oauth.private_key" + (file != null ? "_file\" (" + file + ")" : "\"") + ": "
                    + e.getMessage());
        }
    }

    /** {@code NAME} (the value itself) or {@code NAME_file} (a file read at each use, so it may be rotated). */
    private static IdentityAssertion assertion(Strings strings, String name, String what, Path base, Fields fields) {
        String inline = strings.get(name);
        String file = strings.get(name + "_file");
        if ((inline == null) == (file == null)) {
            throw fields.problem("\"oauth.grant\" needs " + what + ": give one of \"oauth." + name + "_file\" or \"oauth."
                    + name + "\"");
        }
        return inline != null ? IdentityAssertion.of(inline) : IdentityAssertion.file(base.resolve(file).normalize());
    }

    private static IdentityProvider idp(ObjectNode oauth, Fields fields, VariableExpander expander) {
        if (!(oauth.get("idp") instanceof ObjectNode idp)) {
            throw fields.problem("\"oauth.grant\": \"enterprise_managed\" needs \"oauth.idp\": {\"token_endpoint\": ...,"
                    + " \"client_id\": ...}");
        }
        rejectUnknown(idp, IDP_KEYS, "oauth.idp", fields);
        Strings strings = new Strings(idp, fields, expander, "oauth.idp.");
        String endpoint = strings.get("token_endpoint");
        String clientId = strings.get("client_id");
        if (endpoint == null || clientId == null) {
            throw fields.problem("\"oauth.idp\" needs \"token_endpoint\" and \"client_id\"");
        }
        if (!endpoint.startsWith("https://") && !endpoint.startsWith("http://")) {
            throw fields.problem("\"oauth.idp.token_endpoint\" must be an https URL, not \"" + endpoint + "\"");
        }
        return new IdentityProvider(URI.create(endpoint), clientId, strings.get("client_secret"));
    }

    private static void rejectUnknown(ObjectNode object, Set<String> known, String where, Fields fields) {
        for (String key : object.propertyNames()) {
            if (!known.contains(key)) {
                throw fields.problem("\"" + where + "\" has unknown key \"" + key + "\" (known: " + String.join(", ",
                        known.stream().sorted().toList()) + ")");
            }
        }
    }

    /** The string fields of one object, with variables expanded. */
    private record Strings(ObjectNode object, Fields fields, VariableExpander expander, String prefix) {
        String get(String name) {
            String value = fields.string(object, name);
            return value == null ? null : expander.expand(value, prefix + name);
        }
    }
}
