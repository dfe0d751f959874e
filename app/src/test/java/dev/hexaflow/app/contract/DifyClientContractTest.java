package dev.hexaflow.app.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.app.Hexaflow;
import dev.hexaflow.app.config.Configuration;
import io.github.imfangs.dify.client.DifyClientFactory;
import io.github.imfangs.dify.client.DifyWorkflowClient;
import io.github.imfangs.dify.client.callback.WorkflowStreamCallback;
import io.github.imfangs.dify.client.enums.FileTransferMethod;
import io.github.imfangs.dify.client.enums.FileType;
import io.github.imfangs.dify.client.enums.ResponseMode;
import io.github.imfangs.dify.client.event.ErrorEvent;
import io.github.imfangs.dify.client.event.NodeFinishedEvent;
import io.github.imfangs.dify.client.event.WorkflowFinishedEvent;
import io.github.imfangs.dify.client.event.WorkflowStartedEvent;
import io.github.imfangs.dify.client.event.WorkflowTextChunkEvent;
import io.github.imfangs.dify.client.exception.DifyApiException;
import io.github.imfangs.dify.client.model.chat.AppInfoResponse;
import io.github.imfangs.dify.client.model.chat.AppParametersResponse;
import io.github.imfangs.dify.client.model.chat.AppWebAppSettingResponse;
import io.github.imfangs.dify.client.model.file.FileInfo;
import io.github.imfangs.dify.client.model.file.FileUploadRequest;
import io.github.imfangs.dify.client.model.file.FileUploadResponse;
import io.github.imfangs.dify.client.model.workflow.WorkflowLogsResponse;
import io.github.imfangs.dify.client.model.workflow.WorkflowRunRequest;
import io.github.imfangs.dify.client.model.workflow.WorkflowRunResponse;
import io.github.imfangs.dify.client.model.workflow.WorkflowRunStatusResponse;
import io.github.imfangs.dify.client.model.workflow.WorkflowStopResponse;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import okhttp3.MediaType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real Dify client from Maven Central (io.github.imfangs:dify-java-client) against a running Hexaflow. */
class DifyClientContractTest {

    private static final String ADMIN = "contract-admin-token-0123";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dataDir;
    static Hexaflow server;
    static DifyWorkflowClient echo;
    static DifyWorkflowClient reader;
    static DifyWorkflowClient slow;

    @BeforeAll
    static void start() throws Exception {
        server = Hexaflow.start(new Configuration("127.0.0.1", 0, dataDir, Optional.of(ADMIN)));
        String base = server.baseUrl() + "/v1";
        echo = DifyClientFactory.createWorkflowClient(base, importApp("echo.yml"));
        reader = DifyClientFactory.createWorkflowClient(base, importApp("reader.yml"));
        slow = DifyClientFactory.createWorkflowClient(base, importApp("slow.yml"));
    }

    @AfterAll
    static void stop() {
        echo.close();
        reader.close();
        slow.close();
        server.close();
    }

    private static String importApp(String name) throws Exception {
        try (InputStream in = DifyClientContractTest.class.getResourceAsStream("/apps/" + name)) {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(server.baseUrl() + "/admin/apps")).header("Authorization", "Bearer " + ADMIN)
                    .header("Content-Type", "application/yaml")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(in.readAllBytes())).build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode body = JSON.readTree(response.body());
            return body.get("api_key").asText();
        }
    }

    private static WorkflowRunRequest request(Map<String, Object> inputs, ResponseMode mode, String user) {
        return WorkflowRunRequest.builder().inputs(inputs).responseMode(mode).user(user).build();
    }

    @Test
    void aBlockingRunReadsBackAsTheClientsResponse() throws Exception {
        WorkflowRunResponse response = echo.runWorkflow(request(Map.of("query", "from the client"),
                ResponseMode.BLOCKING, "client-user"));

        assertThat(response.getTaskId()).isNotBlank();
        assertThat(response.getWorkflowRunId()).isEqualTo(response.getData().getId());
        assertThat(response.getData().getStatus()).isEqualTo("succeeded");
        assertThat(response.getData().getOutputs()).containsEntry("answer", "You said: from the client (calm)");
        assertThat(response.getData().getTotalSteps()).isEqualTo(3);
        assertThat(response.getData().getCreatedAt()).isPositive();
    }

    @Test
    void aStreamingRunCallsBackStartedNodesTextAndFinished() throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        List<String> seen = new CopyOnWriteArrayList<>();
        AtomicReference<WorkflowFinishedEvent> finished = new AtomicReference<>();

        echo.runWorkflowStream(request(Map.of("query", "streamed"), ResponseMode.STREAMING, "client-user"),
                new WorkflowStreamCallback() {
                    @Override
                    public void onWorkflowStarted(WorkflowStartedEvent event) {
                        seen.add("started:" + (event.getTaskId() != null));
                    }

                    @Override
                    public void onNodeFinished(NodeFinishedEvent event) {
                        seen.add("node");
                    }

                    @Override
                    public void onWorkflowTextChunk(WorkflowTextChunkEvent event) {
                        seen.add("text:" + event.getData().getText());
                    }

                    @Override
                    public void onWorkflowFinished(WorkflowFinishedEvent event) {
                        finished.set(event);
                        done.countDown();
                    }

                    @Override
                    public void onError(ErrorEvent event) {
                        seen.add("error");
                        done.countDown();
                    }

                    @Override
                    public void onException(Throwable error) {
                        seen.add("exception:" + error);
                        done.countDown();
                    }
                });

        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(seen).startsWith("started:true").contains("node", "text:You said: streamed (calm)")
                .doesNotContain("error");
        assertThat(finished.get().getData().getStatus()).isEqualTo("succeeded");
        assertThat(finished.get().getData().getOutputs()).containsEntry("query", "streamed");
    }

    @Test
    void aStopFromTheClientStopsTheStreamedRunAndTheDetailSaysSo() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        AtomicReference<String> taskId = new AtomicReference<>();
        AtomicReference<String> runId = new AtomicReference<>();
        AtomicReference<String> status = new AtomicReference<>();
        slow.runWorkflowStream(request(Map.of("millis", 20000), ResponseMode.STREAMING, "client-user"),
                new WorkflowStreamCallback() {
                    @Override
                    public void onWorkflowStarted(WorkflowStartedEvent event) {
                        taskId.set(event.getTaskId());
                        runId.set(event.getWorkflowRunId());
                        started.countDown();
                    }

                    @Override
                    public void onWorkflowFinished(WorkflowFinishedEvent event) {
                        status.set(event.getData().getStatus());
                        done.countDown();
                    }
                });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

        WorkflowStopResponse stop = slow.stopWorkflow(taskId.get(), "client-user");

        assertThat(stop.getResult()).isEqualTo("success");
        assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(status.get()).isEqualTo("stopped");
        WorkflowRunStatusResponse detail = slow.getWorkflowRun(runId.get());
        assertThat(detail.getStatus()).isEqualTo("stopped");
    }

    @Test
    void theRunDetailAndLogsReadBack() throws Exception {
        WorkflowRunResponse run = echo.runWorkflow(request(Map.of("query", "find me later"), ResponseMode.BLOCKING,
                "log-reader"));

        WorkflowRunStatusResponse detail = echo.getWorkflowRun(run.getWorkflowRunId());
        WorkflowLogsResponse logs = echo.getWorkflowLogs("find me later", null, 1, 10);

        assertThat(detail.getId()).isEqualTo(run.getWorkflowRunId());
        assertThat(detail.getStatus()).isEqualTo("succeeded");
        assertThat(String.valueOf(detail.getInputs())).contains("find me later").contains("sys.user_id");
        assertThat(logs.getTotal()).isEqualTo(1);
        assertThat(logs.getData()).hasSize(1);
        assertThat(logs.getData().get(0).getWorkflowRun().getId()).isEqualTo(run.getWorkflowRunId());
        assertThat(logs.getData().get(0).getCreatedByEndUser().getSessionId()).isEqualTo("log-reader");
    }

    @Test
    void anUploadFromTheClientIsUsedByItsRun() throws Exception {
        FileUploadResponse uploaded = reader.uploadFile(FileUploadRequest.builder().user("uploader")
                .mediaType(MediaType.parse("text/plain")).build(),
                new ByteArrayInputStream("uploaded words".getBytes(StandardCharsets.UTF_8)), "words.txt");

        WorkflowRunResponse run = reader.runWorkflow(request(Map.of("doc", FileInfo.builder().type(FileType.DOCUMENT)
                .transferMethod(FileTransferMethod.LOCAL_FILE).uploadFileId(uploaded.getId()).build()),
                ResponseMode.BLOCKING, "uploader"));

        assertThat(uploaded.getName()).isEqualTo("words.txt");
        assertThat(uploaded.getSize()).isEqualTo(14);
        assertThat(run.getData().getStatus()).as(run.getData().getError()).isEqualTo("succeeded");
        assertThat(run.getData().getOutputs()).containsEntry("text", "uploaded words");
    }

    @Test
    void infoParametersAndSiteReadBackAsTheClientsModels() throws Exception {
        AppInfoResponse info = echo.getAppInfo();
        AppParametersResponse parameters = echo.getAppParameters();
        AppWebAppSettingResponse site = echo.getAppWebAppSettings();

        assertThat(info.getName()).isEqualTo("Echo");
        assertThat(info.getMode()).isEqualTo("workflow");
        assertThat(parameters.getUserInputForm()).hasSize(2);
        assertThat(site.getTitle()).isEqualTo("Echo");
        assertThat(site.getIconType()).isEqualTo("emoji");
    }

    @Test
    void aRefusedRunReachesTheClientAsItsApiException() {
        assertThatThrownBy(() -> echo.runWorkflow(request(Map.of(), ResponseMode.BLOCKING, "client-user")))
                .isInstanceOfSatisfying(DifyApiException.class, e -> {
                    assertThat(e.getStatusCode()).isEqualTo(400);
                    assertThat(e.getErrorCode()).isEqualTo("invalid_param");
                    assertThat(e.getErrorMessage()).isEqualTo("query is required in input form");
                });
    }
}
