package dev.mcpx.front.http;

import dev.mcpx.catalogue.Catalogue;
import dev.mcpx.catalogue.ListKind;
import dev.mcpx.catalogue.Profile;
import dev.mcpx.catalogue.Route;
import dev.mcpx.catalogue.ShortName;
import dev.mcpx.pool.Pool;
import dev.mcpx.pool.UpstreamStatus;
import dev.mcpx.protocol.Json;
import dev.mcpx.telemetry.Telemetry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code GET /status}: one entry per upstream with its state and counters, and what the legacy
 * front's resumable SSE streams did ({@code sse}). An upstream whose tools hosts see under
 * shortened names lists them in {@code shortNames} (short name to full name); each has its
 * {@code recentRecoveries} and {@code lastError}, and {@code catalogue} is the merged catalogue.
 */
final class StatusPage {

    /** {@code GET /}: the page that polls {@code /status}, self-contained (it must work offline). */
    static final String HTML = page();

    private final Pool pool;
    private final Catalogue catalogue;
    private final ReplayCounters replay;
    private final Telemetry telemetry;
    private final Optional<ClusterMembership> cluster;

    /** {@code cluster}: this replica and its cluster's members, for {@code cluster} on the page. */
    StatusPage(Pool pool, Catalogue catalogue, ReplayCounters replay, Telemetry telemetry, Optional<ClusterMembership> cluster) {
        this.cluster = cluster;
        this.pool = pool;
        this.catalogue = catalogue;
        this.replay = replay;
        this.telemetry = telemetry;
    }

    private static String page() {
        try (InputStream in = StatusPage.class.getResourceAsStream("status.html")) {
            if (in == null) {
                throw new IllegalStateException("status.html is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void get(Response response, Callback callback) {
        Replies.text(response, callback, 200, "application/json", Json.write(render()));
    }

    ObjectNode render() {
        ObjectNode page = Json.object();
        ArrayNode upstreams = page.putArray("upstreams");
        for (UpstreamStatus status : pool.status()) {
            ObjectNode entry = upstreams.addObject();
            entry.put("name", status.name());
            entry.put("transport", status.transport());
            entry.put("era", status.era());
            entry.put("protocolVersion", status.protocolVersion());
            entry.put("state", status.state());
            if (status.pid() != null) {
                entry.put("pid", status.pid());
            } else {
                entry.putNull("pid");
            }
            entry.put("requests", status.requests());
            entry.put("reinitializations", status.reinitializations());
            entry.put("reissues", status.reissues());
            entry.put("restarts", status.restarts());
            entry.put("errors", status.errors());
            entry.put("eraChanges", status.eraChanges());
            if (status.reason() != null) {
                entry.put("reason", status.reason());
            }
            telemetry.describe(status.name(), entry);
            for (ShortName shortName : catalogue.shortNames()) {
                if (shortName.upstream().equals(status.name())) {
                    ObjectNode names = entry.has("shortNames") ? (ObjectNode) entry.get("shortNames") : entry.putObject("shortNames");
                    names.put(shortName.shortName(), shortName.fullName());
                }
            }
        }
        ArrayNode profiles = page.putArray("profiles");
        for (Profile profile : catalogue.profiles().named().values().stream()
                .sorted(java.util.Comparator.comparing(Profile::name)).toList()) {
            profiles.add(profile(profile));
        }
        if (catalogue.profiles().whole().search().enabled()) {
            page.set("search", profile(catalogue.profiles().whole()));
        }
        ObjectNode sse = page.putObject("sse");
        sse.put("resumptions", replay.resumptions.get());
        sse.put("replayedEvents", replay.replayedEvents.get());
        sse.put("refusedResumptions", replay.refusedResumptions.get());
        sse.put("evictedEvents", replay.evictedEvents.get());
        sse.put("droppedResults", replay.droppedResults.get());
        sse.put("keptEvents", replay.keptEvents.get());
        sse.put("keptBytes", replay.keptBytes.get());
        page.set("catalogue", merged());
        cluster.ifPresent(membership -> page.set("cluster", cluster(membership)));
        return page;
    }

    private static ObjectNode cluster(ClusterMembership membership) {
        ObjectNode entry = Json.object().put("replica", membership.replica());
        try {
            membership.members().forEach(entry.putArray("members")::add);
        } catch (SessionStoreException e) {
            entry.putNull("members");
            entry.put("error", e.getMessage());
        }
        return entry;
    }

    /** A profile's path, servers, search mode and how many tools its hosts can call now. */
    private ObjectNode profile(Profile profile) {
        ObjectNode entry = Json.object();
        if (!profile.isDefault()) {
            entry.put("name", profile.name());
            entry.put("path", "/mcp/" + profile.name());
            profile.servers().forEach(entry.putArray("servers")::add);
        }
        entry.put("search", profile.search().enabled());
        if (!profile.search().pin().isEmpty()) {
            profile.search().pin().forEach(entry.putArray("pin")::add);
        }
        entry.put("tools", catalogue.view(profile).list(ListKind.TOOLS).size());
        return entry;
    }

    /** What hosts see, with the upstream behind each name: the status page searches it. */
    private ObjectNode merged() {
        ObjectNode merged = Json.object();
        ArrayNode tools = merged.putArray("tools");
        for (ObjectNode tool : catalogue.list(ListKind.TOOLS)) {
            String name = Json.text(tool, "name");
            tools.addObject().put("name", name).put("upstream", catalogue.tool(name).map(Route::upstream).orElse(null))
                    .put("description", Json.text(tool, "description"));
        }
        ArrayNode prompts = merged.putArray("prompts");
        for (ObjectNode prompt : catalogue.list(ListKind.PROMPTS)) {
            String name = Json.text(prompt, "name");
            prompts.addObject().put("name", name).put("upstream", catalogue.prompt(name).map(Route::upstream).orElse(null))
                    .put("description", Json.text(prompt, "description"));
        }
        ArrayNode resources = merged.putArray("resources");
        for (ObjectNode resource : catalogue.list(ListKind.RESOURCES)) {
            String uri = Json.text(resource, "uri");
            resources.addObject().put("uri", uri).put("upstream", catalogue.resource(uri).map(Route::upstream).orElse(null))
                    .put("name", Json.text(resource, "name"));
        }
        return merged;
    }
}
