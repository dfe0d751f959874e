package dev.hexaflow.app.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.app.Hexaflow;
import dev.hexaflow.app.config.Configuration;
import io.github.imfangs.dify.client.DifyClientFactory;
import io.github.imfangs.dify.client.DifyDatasetsClient;
import io.github.imfangs.dify.client.exception.DifyApiException;
import io.github.imfangs.dify.client.model.datasets.CreateDatasetRequest;
import io.github.imfangs.dify.client.model.datasets.CreateDocumentByTextRequest;
import io.github.imfangs.dify.client.model.datasets.DatasetListResponse;
import io.github.imfangs.dify.client.model.datasets.DatasetResponse;
import io.github.imfangs.dify.client.model.datasets.DocumentListResponse;
import io.github.imfangs.dify.client.model.datasets.DocumentResponse;
import io.github.imfangs.dify.client.model.datasets.IndexingStatusResponse;
import io.github.imfangs.dify.client.model.datasets.RetrievalModel;
import io.github.imfangs.dify.client.model.datasets.RetrieveRequest;
import io.github.imfangs.dify.client.model.datasets.RetrieveResponse;
import io.github.imfangs.dify.client.model.datasets.SegmentListResponse;
import io.github.imfangs.dify.client.model.datasets.SegmentResponse;
import io.github.imfangs.dify.client.model.datasets.UpdateSegmentRequest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * dify-java-client's datasets client (io.github.imfangs:dify-java-client) against a running Hexaflow with a dataset
 * key: a keyword-only base, filled by text, its segments edited, searched, and deleted.
 */
class DifyDatasetsContractTest {

    private static final String ADMIN = "contract-admin-token-0123";

    @TempDir
    static Path dataDir;
    static Hexaflow server;
    static DifyDatasetsClient datasets;

    @BeforeAll
    static void start() throws Exception {
        server = Hexaflow.start(new Configuration("127.0.0.1", 0, dataDir, Optional.of(ADMIN)));
        HttpResponse<String> issued = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(server.baseUrl() + "/admin/datasets/keys")).header("Authorization", "Bearer " + ADMIN)
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        String key = new ObjectMapper().readTree(issued.body()).get("key").asText();
        datasets = DifyClientFactory.createDatasetsClient(server.baseUrl() + "/v1", key);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void theClientCreatesFillsEditsSearchesAndDeletesADataset() throws Exception {
        CreateDatasetRequest create = new CreateDatasetRequest();
        create.setName("Client handbook");
        create.setDescription("made by dify-java-client");
        create.setIndexingTechnique("economy");
        DatasetResponse dataset = datasets.createDataset(create);

        CreateDocumentByTextRequest text = new CreateDocumentByTextRequest();
        text.setName("leave.md");
        text.setText("Paid leave: every employee has 25 days of paid leave a year.");
        text.setIndexingTechnique("economy");
        DocumentResponse document = datasets.createDocumentByText(dataset.getId(), text);
        IndexingStatusResponse status = datasets.getIndexingStatus(dataset.getId(), document.getBatch());
        DatasetListResponse listed = datasets.getDatasets(1, 20);
        DocumentListResponse documents = datasets.getDocuments(dataset.getId(), null, 1, 20);
        String docId = document.getDocument().getId();
        SegmentListResponse segments = datasets.getSegments(dataset.getId(), docId, null, null);
        String segmentId = segments.getData().get(0).getId();
        UpdateSegmentRequest.SegmentInfo change = new UpdateSegmentRequest.SegmentInfo();
        change.setContent("Paid leave: every employee has 30 days of paid leave a year.");
        UpdateSegmentRequest update = new UpdateSegmentRequest();
        update.setSegment(change);
        SegmentResponse edited = datasets.updateSegment(dataset.getId(), docId, segmentId, update);
        RetrievalModel model = new RetrievalModel();
        model.setSearchMethod("keyword_search");
        model.setTopK(3);
        model.setScoreThresholdEnabled(false);
        model.setRerankingEnable(false);
        RetrieveRequest query = new RetrieveRequest();
        query.setQuery("paid leave");
        query.setRetrievalModel(model);
        RetrieveResponse found = datasets.retrieveDataset(dataset.getId(), query);

        assertThat(dataset.getName()).isEqualTo("Client handbook");
        assertThat(dataset.getIndexingTechnique()).isEqualTo("economy");
        assertThat(document.getDocument().getIndexingStatus()).isEqualTo("completed");
        assertThat(status.getData().get(0).getIndexingStatus()).isEqualTo("completed");
        assertThat(listed.getData()).extracting(DatasetListResponse.DatasetInfo::getId).contains(dataset.getId());
        assertThat(documents.getTotal()).isEqualTo(1);
        assertThat(segments.getData()).hasSize(1);
        assertThat(edited.getData().getContent()).contains("30 days");
        assertThat(found.getQuery().getContent()).isEqualTo("paid leave");
        assertThat(found.getRecords()).hasSize(1);
        assertThat(found.getRecords().get(0).getSegment().getContent()).contains("30 days");
        assertThat(found.getRecords().get(0).getScore()).isBetween(0.0, 1.0);

        datasets.deleteDocument(dataset.getId(), docId);
        assertThat(datasets.getDocuments(dataset.getId(), null, 1, 20).getTotal()).isZero();
        datasets.deleteDataset(dataset.getId());
        assertThatThrownBy(() -> datasets.getDataset(dataset.getId())).isInstanceOf(DifyApiException.class);
    }
}
