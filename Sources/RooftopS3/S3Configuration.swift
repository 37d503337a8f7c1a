/// Where an S3-compatible object store keeps the files, and the credentials to sign with.
package struct S3Configuration: Sendable, Equatable {
    /// `https://s3.us-east-1.amazonaws.com`, `http://127.0.0.1:9000` (MinIO), an R2 endpoint.
    package var endpoint: String
    /// The bucket (it must exist).
    package var bucket: String
    /// The region the requests are signed for (`auto` for R2).
    package var region: String
    /// The access key id.
    package var accessKeyId: String
    /// The secret access key (never logged).
    package var secretAccessKey: String
    /// Prepended to every file's name, e.g. `files/`.
    package var prefix: String
    /// `https://endpoint/bucket/key` (MinIO, most compatible servers) rather than
    /// `https://bucket.endpoint/key` (AWS's virtual-hosted style).
    package var pathStyle: Bool

    /// A configuration.
    package init(
        endpoint: String, bucket: String, region: String = "us-east-1", accessKeyId: String, secretAccessKey: String, prefix: String = "",
        pathStyle: Bool = true
    ) {
        self.endpoint = endpoint
        self.bucket = bucket
        self.region = region
        self.accessKeyId = accessKeyId
        self.secretAccessKey = secretAccessKey
        self.prefix = prefix
        self.pathStyle = pathStyle
    }
}
