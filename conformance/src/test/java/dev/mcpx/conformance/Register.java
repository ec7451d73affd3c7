package dev.mcpx.conformance;

import dev.mcpx.conformance.Requirement.Status;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * conformance/register.yaml read into rows. Whatever is malformed is collected as a problem
 * naming the row and the field, so one run reports every mistake at once.
 */
record Register(List<Requirement> rows, List<String> scope, List<String> problems) {

    static final Set<String> ROLES = Set.of("client", "gateway-server", "gateway-client");
    static final Set<String> LEVELS = Set.of("MUST", "MUST NOT", "SHOULD", "SHOULD NOT", "REQUIRED");
    private static final Pattern ID = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");
    private static final Pattern REVISION = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    private static final Set<String> FIELDS = Set.of("id", "revision", "spec", "section", "level", "sentence", "role",
            "status", "evidence", "reason", "note", "deviation", "verified-by");

    static Register load(Path file) {
        JsonNode root;
        try {
            root = YAMLMapper.builder().build().readTree(Files.readString(file));
        } catch (Exception e) {
            return new Register(List.of(), List.of(), List.of(file + ": not readable YAML: " + e.getMessage()));
        }
        List<String> problems = new ArrayList<>();
        JsonNode list = root == null ? null : root.get("requirements");
        if (list == null || !list.isArray()) {
            return new Register(List.of(), List.of(), List.of(file + ": expected a top-level `requirements:` list"));
        }
        List<Requirement> rows = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        int index = 0;
        for (JsonNode node : list) {
            index++;
            Requirement row = row(node, "row " + index, problems);
            if (row == null) {
                continue;
            }
            if (!ids.add(row.id())) {
                problems.add(row.id() + ": duplicate id");
            }
            rows.add(row);
        }
        return new Register(List.copyOf(rows), scope(root, problems), List.copyOf(problems));
    }

    /** The spec pages on which every MUST and REQUIRED must be claimed by some row. */
    private static List<String> scope(JsonNode root, List<String> problems) {
        JsonNode scope = root.get("scope");
        List<String> pages = new ArrayList<>();
        if (scope == null || !scope.isArray()) {
            problems.add("expected a top-level `scope:` list of spec pages whose every MUST the register claims");
            return List.of();
        }
        scope.forEach(page -> pages.add(page.asString()));
        return List.copyOf(pages);
    }

    private static Requirement row(JsonNode node, String where, List<String> problems) {
        if (!node.isObject()) {
            problems.add(where + ": not a mapping");
            return null;
        }
        String id = text(node, "id");
        String name = id == null ? where : id;
        for (String field : node.propertyNames()) {
            if (!FIELDS.contains(field)) {
                problems.add(name + ": unknown field `" + field + "` (known: " + FIELDS + ")");
            }
        }
        if (id == null || !ID.matcher(id).matches()) {
            problems.add(name + ": `id` must be kebab-case (lower-case letters, digits, single hyphens)");
        }
        String revision = require(node, "revision", name, problems);
        if (revision != null && !REVISION.matcher(revision).matches()) {
            problems.add(name + ": `revision` must be a date such as 2025-11-25");
        }
        String spec = require(node, "spec", name, problems);
        if (spec != null && revision != null && !spec.startsWith(revision + "/")) {
            problems.add(name + ": `spec` must be a path under the revision's folder, " + revision + "/...");
        }
        String section = require(node, "section", name, problems);
        String level = require(node, "level", name, problems);
        if (level != null && !LEVELS.contains(level)) {
            problems.add(name + ": `level` must be one of " + LEVELS);
        }
        String sentence = require(node, "sentence", name, problems);
        if (sentence != null && sentence.contains("\n")) {
            problems.add(name + ": `sentence` must be one line");
        }
        String role = require(node, "role", name, problems);
        if (role != null && !ROLES.contains(role)) {
            problems.add(name + ": `role` must be one of " + ROLES);
        }
        String statusText = require(node, "status", name, problems);
        Status status = statusText == null ? null : Status.parse(statusText);
        if (statusText != null && status == null) {
            problems.add(name + ": `status` must be covered, gap or not-applicable");
        }
        List<TestRef> tests = new ArrayList<>();
        List<ScenarioRef> scenarios = new ArrayList<>();
        evidence(node.get("evidence"), name, tests, scenarios, problems);
        String reason = text(node, "reason");
        Requirement row = new Requirement(id == null ? where : id, revision, spec, section, level, sentence, role,
                status, List.copyOf(tests), List.copyOf(scenarios), reason, text(node, "note"), text(node, "deviation"),
                "conformance-run".equals(text(node, "verified-by")));
        String verifiedBy = text(node, "verified-by");
        if (verifiedBy != null && (!verifiedBy.equals("conformance-run") || status != Status.COVERED
                || scenarios.isEmpty() || !tests.isEmpty())) {
            problems.add(name + ": `verified-by: conformance-run` belongs only on a covered row whose evidence is scenarios alone");
        }
        if (status == Status.COVERED && !row.hasEvidence()) {
            problems.add(name + ": a covered row needs `evidence` (tests and/or scenarios)");
        }
        if (status == Status.NOT_APPLICABLE && (reason == null || reason.isBlank())) {
            problems.add(name + ": a not-applicable row needs a `reason`");
        }
        if (status != Status.COVERED && row.hasEvidence()) {
            problems.add(name + ": only a covered row cites evidence; say what exists in `note`");
        }
        return row;
    }

    private static void evidence(JsonNode evidence, String name, List<TestRef> tests, List<ScenarioRef> scenarios,
            List<String> problems) {
        if (evidence == null || evidence.isNull()) {
            return;
        }
        if (!evidence.isObject()) {
            problems.add(name + ": `evidence` must be a mapping with `tests` and/or `scenarios`");
            return;
        }
        for (String field : evidence.propertyNames()) {
            if (!field.equals("tests") && !field.equals("scenarios")) {
                problems.add(name + ": unknown evidence kind `" + field + "` (tests, scenarios)");
            }
        }
        for (JsonNode test : list(evidence, "tests", name, problems)) {
            TestRef ref = TestRef.parse(test.asString());
            if (ref == null) {
                problems.add(name + ": test `" + test.asString() + "` is not package.Class#method");
            } else {
                tests.add(ref);
            }
        }
        for (JsonNode scenario : list(evidence, "scenarios", name, problems)) {
            ScenarioRef ref = ScenarioRef.parse(scenario.asString());
            if (ref == null) {
                problems.add(name + ": scenario `" + scenario.asString() + "` is not client:name@revision or server:name@revision");
            } else {
                scenarios.add(ref);
            }
        }
    }

    private static List<JsonNode> list(JsonNode evidence, String field, String name, List<String> problems) {
        JsonNode value = evidence.get(field);
        if (value == null || value.isNull()) {
            return List.of();
        }
        if (!value.isArray()) {
            problems.add(name + ": evidence `" + field + "` must be a list");
            return List.of();
        }
        List<JsonNode> items = new ArrayList<>();
        value.forEach(items::add);
        return items;
    }

    private static String require(JsonNode node, String field, String name, List<String> problems) {
        String value = text(node, field);
        if (value == null || value.isBlank()) {
            problems.add(name + ": `" + field + "` is missing");
            return null;
        }
        return value;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asString().strip();
    }

    Map<String, Requirement> byId() {
        Map<String, Requirement> byId = new LinkedHashMap<>();
        rows.forEach(row -> byId.putIfAbsent(row.id(), row));
        return byId;
    }
}
