/** GraphQL operations of the VOD pages (one place, so the list, the upload and the asset view share them). */
import { graphql } from '../../generated';

/** One asset, every field the pages show. */
export const VodAssetDocument = graphql(`
  query VodAsset($id: ID!) {
    vodAsset(id: $id) {
      id playbackId filename title status progressPercent sizeBytes storedBytes durationMs resolution
      videoCodec audioCodec errorMessage outputs createdAt completedAt thumbnailUrl
    }
  }
`);

/** The tenant's VOD assets as storage artifacts. */
export const VodListDocument = graphql(`
  query VodList($input: StorageArtifactsInput) {
    storageArtifactsConnection(input: $input) {
      totalCount
      nodes { id kind hash playbackId title status durationSeconds sizeBytes createdAt errorMessage }
    }
  }
`);

/** Starts a multipart upload. */
export const CreateVodUploadDocument = graphql(`
  mutation CreateVodUpload($input: CreateVodUploadInput!) {
    createVodUpload(input: $input) {
      __typename
      ... on VodUploadSession { id artifactId partSize parts { partNumber presignedUrl } }
      ...Failure
    }
  }
`);

/** Joins the parts and starts processing. */
export const CompleteVodUploadDocument = graphql(`
  mutation CompleteVodUpload($input: CompleteVodUploadInput!) {
    completeVodUpload(input: $input) {
      __typename
      ... on VodAsset { id artifactHash status }
      ...Failure
    }
  }
`);

/** Drops an unfinished upload. */
export const AbortVodUploadDocument = graphql(`
  mutation AbortVodUpload($uploadId: ID!) {
    abortVodUpload(uploadId: $uploadId) {
      __typename
      ...Failure
    }
  }
`);

/** Deletes an asset and everything it stored. */
export const DeleteVodAssetDocument = graphql(`
  mutation DeleteVodAsset($id: ID!) {
    deleteVodAsset(id: $id) {
      __typename
      ... on DeleteSuccess { deletedId }
      ...Failure
    }
  }
`);

/** Every VOD asset event of the tenant (any change reloads what the page shows). */
export const VodLifecycleDocument = graphql(`
  subscription VodLifecycle {
    liveVodLifecycle { eventId status vodHash }
  }
`);
