package dev.mcpx.setup;

import dev.mcpx.config.ConfigException;
import dev.mcpx.config.ConfigLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Moves one host's servers into mcpx's config and points the host at {@code mcpx serve}; and
 * undoes that. The host file's original bytes are kept beside it ({@code FILE.mcpx-backup}),
 * with a record of what setup changed ({@code FILE.mcpx-setup.json}).
 */
public final class HostSetup {

    /** The name of the host entry that runs mcpx. */
    public static final String ENTRY = "mcpx";

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)");

    private final Host host;
    private final Os os;
    private final Path hostFile;
    private final Path mcpxConfig;
    private final McpxCommand mcpx;

    public HostSetup(Host host, Os os, Path hostFile, Path mcpxConfig, McpxCommand mcpx) {
        this.host = host;
        this.os = os;
        this.hostFile = hostFile;
        this.mcpxConfig = mcpxConfig;
        this.mcpx = mcpx;
    }

    Path backup() {
        return hostFile.resolveSibling(hostFile.getFileName() + ".mcpx-backup");
    }

    Path record() {
        return hostFile.resolveSibling(hostFile.getFileName() + ".mcpx-setup.json");
    }

    /** What a run would write; reads only. */
    public SetupPlan plan() {
        if (Files.exists(record())) {
            throw new ConfigException(hostFile, null, "mcpx setup was already run for it (" + record()
                    + "); run `mcpx setup --undo " + host.id() + "` first");
        }
        String hostBefore = read(hostFile);
        String mcpxBefore = read(mcpxConfig);
        ObjectNode hostServers = hostBefore == null ? JsonNodeFactory.instance.objectNode()
                : servers(parse(hostFile, hostBefore), host.serversKey(), hostFile);
        ObjectNode mcpxRoot = mcpxBefore == null ? JsonNodeFactory.instance.objectNode() : parse(mcpxConfig, mcpxBefore);
        String mcpxKey = mcpxRoot.has("mcpServers") || !mcpxRoot.has("servers") ? "mcpServers" : "servers";
        ObjectNode mcpxServers = servers(mcpxRoot, mcpxKey, mcpxConfig).deepCopy();

        EntryTranslation translation = new EntryTranslation(host, os);
        ObjectNode hostAfter = JsonNodeFactory.instance.objectNode();
        List<SetupPlan.Move> moves = new ArrayList<>();
        List<SetupPlan.Left> left = new ArrayList<>();
        for (Map.Entry<String, JsonNode> entry : hostServers.properties()) {
            String name = entry.getKey();
            switch (translation.translate(entry.getValue())) {
                case EntryTranslation.Moved moved -> {
                    JsonNode existing = mcpxServers.get(name);
                    if (moved.entry().equals(existing)) {
                        moves.add(new SetupPlan.Move(name, name, true));
                    } else {
                        String target = existing == null ? name : freeName(name, mcpxServers);
                        mcpxServers.set(target, moved.entry());
                        moves.add(new SetupPlan.Move(name, target, false));
                    }
                }
                case EntryTranslation.Kept kept -> {
                    if (name.equals(ENTRY)) {
                        left.add(new SetupPlan.Left(name, kept.reason() + "; replaced by the new \"" + ENTRY
                                + "\" entry, the backup keeps it"));
                    } else {
                        hostAfter.set(name, entry.getValue().deepCopy());
                        left.add(new SetupPlan.Left(name, kept.reason()));
                    }
                }
            }
        }
        hostAfter.set(ENTRY, hostEntry());
        String newHost;
        if (hostBefore == null) {
            newHost = JsonText.document(host.serversKey(), hostAfter);
        } else {
            // Entries left in the host keep their own text, comments included; the new mcpx entry is new.
            Map<String, String> leftAsTheyAre = new HashMap<>(JsonText.memberTexts(hostBefore, host.serversKey()));
            leftAsTheyAre.remove(ENTRY);
            newHost = JsonText.withTopLevel(hostBefore, host.serversKey(), hostAfter, leftAsTheyAre);
        }
        String newMcpx = mcpxBefore == null ? JsonText.document(mcpxKey, mcpxServers)
                : JsonText.withTopLevel(mcpxBefore, mcpxKey, mcpxServers);
        validate(newMcpx);
        return new SetupPlan(host, hostFile, hostBefore, newHost, mcpxConfig, mcpxBefore, newMcpx, moves, left);
    }

    /** Writes the plan: backup and record first, so an interrupted run can still be undone. */
    public void apply(SetupPlan plan) {
        ObjectNode added = JsonNodeFactory.instance.objectNode();
        ObjectNode mcpxServers = servers(parse(mcpxConfig, plan.mcpxAfter()), mcpxKey(plan.mcpxAfter()), mcpxConfig);
        for (SetupPlan.Move move : plan.moves()) {
            if (!move.alreadyThere()) {
                added.set(move.mcpxName(), mcpxServers.get(move.mcpxName()));
            }
        }
        try {
            if (plan.hostBefore() != null) {
                Files.copy(hostFile, backup(), StandardCopyOption.COPY_ATTRIBUTES, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot back up " + hostFile + ": " + e.getMessage(), e);
        }
        SetupRecord record = new SetupRecord(host.id(), plan.hostBefore() != null, SetupRecord.digest(plan.hostAfter()),
                mcpxConfig.toAbsolutePath().toString(), plan.mcpxBefore(), SetupRecord.digest(plan.mcpxAfter()), added);
        AtomicFiles.write(record(), record.toJson().getBytes(StandardCharsets.UTF_8));
        AtomicFiles.write(mcpxConfig, plan.mcpxAfter().getBytes(StandardCharsets.UTF_8));
        AtomicFiles.write(hostFile, plan.hostAfter().getBytes(StandardCharsets.UTF_8));
    }

    /** Restores the host file and takes out of mcpx's config what setup put there; says what it did. */
    public List<String> undo() {
        String recordText = read(record());
        if (recordText == null) {
            throw new ConfigException(hostFile, null, "has no mcpx setup to undo (no " + record() + ")");
        }
        SetupRecord record = SetupRecord.parse(recordText, record());
        Path config = Path.of(record.mcpxConfig());
        List<String> report = new ArrayList<>();
        String hostNow = read(hostFile);
        boolean exact = hostNow != null && SetupRecord.digest(hostNow).equals(record.hostWritten());
        if (exact || hostNow == null) {
            restoreHost(record, report);
        } else {
            restoreHostServers(hostNow, report);
        }
        undoMcpx(record, config, report);
        delete(record());
        return report;
    }

    private void restoreHost(SetupRecord record, List<String> report) {
        try {
            if (record.hostExisted()) {
                AtomicFiles.write(hostFile, Files.readAllBytes(backup()));
                delete(backup());
                report.add("restored " + hostFile + " as it was before setup");
            } else {
                delete(hostFile);
                report.add("removed " + hostFile + ", which setup created");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the backup " + backup() + ": " + e.getMessage(), e);
        }
    }

    /** The host rewrote its file since setup: put its servers back and keep its other changes. */
    private void restoreHostServers(String hostNow, List<String> report) {
        String original = read(backup());
        ObjectNode servers = original == null ? JsonNodeFactory.instance.objectNode()
                : servers(parse(backup(), original), host.serversKey(), backup()).deepCopy();
        ObjectNode now = servers(parse(hostFile, hostNow), host.serversKey(), hostFile);
        for (Map.Entry<String, JsonNode> entry : now.properties()) {
            if (!entry.getKey().equals(ENTRY) && !servers.has(entry.getKey())) {
                servers.set(entry.getKey(), entry.getValue());
            }
        }
        AtomicFiles.write(hostFile, JsonText.withTopLevel(hostNow, host.serversKey(), servers).getBytes(StandardCharsets.UTF_8));
        report.add(hostFile + " changed since setup: restored its \"" + host.serversKey()
                + "\" and kept the other changes; the original stays in " + backup());
    }

    private static void undoMcpx(SetupRecord record, Path config, List<String> report) {
        String now = read(config);
        if (now == null) {
            report.add(config + " is gone; nothing to take out of it");
            return;
        }
        if (SetupRecord.digest(now).equals(record.mcpxWritten())) {
            if (record.mcpxBefore() == null) {
                delete(config);
                report.add("removed " + config + ", which setup created");
            } else {
                AtomicFiles.write(config, record.mcpxBefore().getBytes(StandardCharsets.UTF_8));
                report.add("restored " + config + " as it was before setup");
            }
            return;
        }
        String key = mcpxKey(now);
        ObjectNode servers = servers(parse(config, now), key, config).deepCopy();
        List<String> removed = new ArrayList<>();
        for (Map.Entry<String, JsonNode> added : record.added().properties()) {
            JsonNode current = servers.get(added.getKey());
            if (added.getValue().equals(current)) {
                servers.remove(added.getKey());
                removed.add(added.getKey());
            } else if (current != null) {
                report.add("left " + added.getKey() + " in " + config + ": it was changed since setup");
            }
        }
        AtomicFiles.write(config, JsonText.withTopLevel(now, key, servers).getBytes(StandardCharsets.UTF_8));
        report.add(config + " changed since setup: took out " + (removed.isEmpty() ? "nothing" : String.join(", ", removed)));
    }

    private ObjectNode hostEntry() {
        List<String> command = mcpx.serve(mcpxConfig);
        ObjectNode entry = JsonNodeFactory.instance.objectNode();
        if (host == Host.VSCODE || host == Host.CLAUDE_CODE) {
            entry.put("type", "stdio");
        }
        entry.put("command", command.getFirst());
        var args = entry.putArray("args");
        command.subList(1, command.size()).forEach(args::add);
        return entry;
    }

    /** {@code name-HOST}, then {@code name-HOST-2}, ...: the same answer every run. */
    private String freeName(String name, ObjectNode taken) {
        String base = name + "-" + host.id();
        String candidate = base;
        for (int n = 2; taken.has(candidate); n++) {
            candidate = base + "-" + n;
        }
        return candidate;
    }

    /** The new config must load in mcpx; variables are checked when it runs, not here. */
    private void validate(String text) {
        Map<String, String> environment = new HashMap<>(System.getenv());
        Matcher variable = VARIABLE.matcher(text);
        Set<String> names = new LinkedHashSet<>();
        while (variable.find()) {
            names.add(variable.group(1));
        }
        names.forEach(name -> environment.putIfAbsent(name, "x"));
        new ConfigLoader(environment).parse(text, mcpxConfig);
    }

    private static String mcpxKey(String text) {
        ObjectNode root = JsonText.root(text);
        return root.has("mcpServers") || !root.has("servers") ? "mcpServers" : "servers";
    }

    private static ObjectNode servers(ObjectNode root, String key, Path file) {
        JsonNode servers = root.get(key);
        if (servers == null || servers.isNull()) {
            return JsonNodeFactory.instance.objectNode();
        }
        if (!(servers instanceof ObjectNode object)) {
            throw new ConfigException(file, null, "\"" + key + "\" must be an object");
        }
        return object;
    }

    private static ObjectNode parse(Path file, String text) {
        try {
            return JsonText.root(text);
        } catch (JacksonException e) {
            throw new ConfigException(file, null, "is not valid JSON: " + e.getOriginalMessage());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(file, null, e.getMessage());
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new ConfigException(file, null, "cannot be read: " + e.getMessage());
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + file + ": " + e.getMessage(), e);
        }
    }
}
