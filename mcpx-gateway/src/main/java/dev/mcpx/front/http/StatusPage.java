package dev.mcpx.front.http;

import dev.mcpx.catalogue.Catalogue;
import dev.mcpx.catalogue.ListKind;
import dev.mcpx.catalogue.Profile;
import dev.mcpx.catalogue.ShortName;
import dev.mcpx.pool.Pool;
import dev.mcpx.pool.UpstreamStatus;
import dev.mcpx.protocol.Json;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code GET /status}: one entry per upstream with its state and counters, and what the legacy
 * front's resumable SSE streams did ({@code sse}). An upstream whose tools hosts see under
 * shortened names lists them in {@code shortNames} (short name to full name).
 */
final class StatusPage {

    private final Pool pool;
    private final Catalogue catalogue;
    private final ReplayCounters replay;

    StatusPage(Pool pool, Catalogue catalogue, ReplayCounters replay) {
        this.pool = pool;
        this.catalogue = catalogue;
        this.replay = replay;
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
        return page;
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
}
