package dev.mcpx.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The manifests of {@code deploy/kubernetes} hold together as Kubernetes would read them (no
 * kubectl or helm here): every file the kustomization names parses; the Services select the pods
 * of their Deployments and reach ports they name; the probes ask the paths mcpx answers; the
 * pods run as the image's user; what the pods take from a ConfigMap is in these files, what they
 * take from the Secret is what the docs say to create; and the config in the ConfigMap is one
 * mcpx loads, clustered on the Redis Service, with the secret key from the pod's environment.
 */
class KubernetesManifestsTest {

    private static final Path DIR = Path.of("..", "deploy", "kubernetes");
    private static final ObjectMapper YAML = YAMLMapper.builder().build();
    private static final Map<String, JsonNode> byKindAndName = new HashMap<>();

    @BeforeAll
    static void read() throws Exception {
        JsonNode kustomization = YAML.readTree(Files.readString(DIR.resolve("kustomization.yaml")));
        assertThat(kustomization.path("kind").asString()).isEqualTo("Kustomization");
        for (JsonNode file : kustomization.path("resources")) {
            String text = Files.readString(DIR.resolve(file.asString()));
            for (String document : text.split("(?m)^---$")) {
                JsonNode node = YAML.readTree(document);
                if (node == null || node.isMissingNode() || node.isNull()) {
                    continue;
                }
                assertThat(node.path("apiVersion").asString()).as(file.asString()).isNotEmpty();
                byKindAndName.put(node.path("kind").asString() + "/" + node.path("metadata").path("name").asString(), node);
            }
        }
        assertThat(byKindAndName).containsKeys("Deployment/mcpx", "Service/mcpx", "ConfigMap/mcpx-config",
                "Deployment/mcpx-redis", "Service/mcpx-redis");
    }

    @Test
    void everyServiceSelectsItsDeploymentsPodsAndAPortTheyName() {
        for (String name : List.of("mcpx", "mcpx-redis")) {
            JsonNode service = byKindAndName.get("Service/" + name);
            JsonNode pods = byKindAndName.get("Deployment/" + name).path("spec").path("template");
            JsonNode labels = pods.path("metadata").path("labels");
            service.path("spec").path("selector").properties().forEach(label ->
                    assertThat(labels.path(label.getKey()).asString()).as(name + " selector").isEqualTo(label.getValue().asString()));
            JsonNode deployment = byKindAndName.get("Deployment/" + name).path("spec");
            deployment.path("selector").path("matchLabels").properties().forEach(label ->
                    assertThat(labels.path(label.getKey()).asString()).isEqualTo(label.getValue().asString()));
            Set<String> portNames = new HashSet<>();
            pods.path("spec").path("containers").forEach(container -> container.path("ports")
                    .forEach(port -> portNames.add(port.path("name").asString())));
            service.path("spec").path("ports").forEach(port ->
                    assertThat(portNames).as(name + " targetPort").contains(port.path("targetPort").asString()));
        }
    }

    @Test
    void theReplicasAreProbedOnHealthzRunAsTheImagesUserAndTakeTheirKeyFromTheSecret() {
        JsonNode spec = byKindAndName.get("Deployment/mcpx").path("spec");
        assertThat(spec.path("replicas").asInt()).isGreaterThan(1);
        JsonNode pod = spec.path("template").path("spec");
        assertThat(pod.path("securityContext").path("runAsNonRoot").asBoolean()).isTrue();
        assertThat(pod.path("securityContext").path("runAsUser").asInt()).as("the image's user (bin/image)").isEqualTo(10001);
        JsonNode container = pod.path("containers").get(0);
        assertThat(container.path("args").toString()).contains("\"0.0.0.0:8080\"", "\"/etc/mcpx/mcpx.json\"");
        assertThat(container.path("ports").get(0).path("containerPort").asInt()).isEqualTo(8080);
        assertThat(container.path("livenessProbe").path("httpGet").path("path").asString()).isEqualTo("/healthz");
        assertThat(container.path("startupProbe").path("httpGet").path("path").asString()).isEqualTo("/healthz");
        JsonNode readiness = container.path("readinessProbe");
        assertThat(readiness.path("httpGet").path("path").asString()).isEqualTo("/healthz/ready");
        assertThat(readiness.path("timeoutSeconds").asInt()).as("longer than Redis's 5 s timeout").isGreaterThan(5);

        Map<String, String> fromSecret = new HashMap<>();
        container.path("env").forEach(variable -> {
            JsonNode ref = variable.path("valueFrom").path("secretKeyRef");
            if (!ref.isMissingNode()) {
                assertThat(ref.path("name").asString()).isEqualTo("mcpx-secrets");
                fromSecret.put(variable.path("name").asString(), ref.path("key").asString());
            }
        });
        assertThat(fromSecret).containsEntry("MCPX_SECRET_KEY", "MCPX_SECRET_KEY").containsEntry("MCPX_TOKEN", "MCPX_TOKEN");
        String howToCreate = readUnchecked(DIR.resolve("mcpx.yaml"));
        fromSecret.values().forEach(key -> assertThat(howToCreate).contains("--from-literal=" + key + "="));

        List<String> configMaps = new ArrayList<>();
        pod.path("volumes").forEach(volume -> {
            if (volume.has("configMap")) {
                configMaps.add(volume.path("configMap").path("name").asString());
            }
        });
        assertThat(configMaps).containsExactly("mcpx-config");
        JsonNode mount = null;
        for (JsonNode candidate : container.path("volumeMounts")) {
            if (candidate.path("name").asString().equals("config")) {
                mount = candidate;
            }
        }
        assertThat(mount).isNotNull();
        assertThat(mount.path("mountPath").asString()).isEqualTo("/etc/mcpx");
    }

    @Test
    void theConfigMapsConfigLoadsClusteredOnTheRedisServiceWithTheKeyFromThePod() {
        String json = byKindAndName.get("ConfigMap/mcpx-config").path("data").path("mcpx.json").asString();
        String key = "q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq80=";
        GatewayConfig config = new ConfigLoader(Map.of("MCPX_SECRET_KEY", key, "MCPX_TOKEN", "t0ken"))
                .parse(json, Path.of("/etc/mcpx/mcpx.json"));
        JsonNode redisService = byKindAndName.get("Service/mcpx-redis");
        String redis = "redis://" + redisService.path("metadata").path("name").asString() + ":"
                + redisService.path("spec").path("ports").get(0).path("port").asInt();
        assertThat(config.cluster().redis(Map.of())).map(Object::toString).contains(redis);
        assertThat(config.cluster().secretKeys(Map.of())).containsExactly(key);
        assertThat(config.tokens()).isNotEmpty();
    }

    private static String readUnchecked(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
