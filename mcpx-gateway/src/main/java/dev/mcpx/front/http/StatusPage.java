package dev.mcpx.front.http;

import dev.mcpx.catalogue.Catalogue;
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
}
