"""Port of cmd/kube-controller-manager/names/controller_names.go (and the three names of k8s.io/cloud-provider/names).

The canonical name of every controller kube-controller-manager knows at
v1.36.3. These names are identifiers: `--controllers` takes them, logs and
events use them, and a name is never changed without keeping the old one as an
alias on its descriptor (the aliases, such as `deployment` for
`deployment-controller`, live on the descriptors, as upstream: see
controller_descriptor.py, apps.py and core.py). minikcm ports four of these
controllers; the others are registered so that asking for one gets a clear
"not ported" answer.

The list follows TestControllerNamesDeclaration in
app/controllermanager_test.go; the names added after older copies of
controller_names.go (PodCertificateRequestCleanerController,
VolumeAttributesClassProtectionController,
KubeAPIServerClusterTrustBundlePublisherController,
DeviceTaintEvictionController and SELinuxWarningController) were checked
against descriptor code of the 1.36 era.

Start reading at: DEPLOYMENT_CONTROLLER.

Not ported: nothing (constants only).
Differs from Go: the three cloud-provider names (Go: package cloud-provider/names)
sit at the end of this module.
"""

from __future__ import annotations

SERVICE_ACCOUNT_TOKEN_CONTROLLER = "serviceaccount-token-controller"
ENDPOINTS_CONTROLLER = "endpoints-controller"
ENDPOINT_SLICE_CONTROLLER = "endpointslice-controller"
ENDPOINT_SLICE_MIRRORING_CONTROLLER = "endpointslice-mirroring-controller"
REPLICATION_CONTROLLER_CONTROLLER = "replicationcontroller-controller"
POD_GARBAGE_COLLECTOR_CONTROLLER = "pod-garbage-collector-controller"
RESOURCE_QUOTA_CONTROLLER = "resourcequota-controller"
NAMESPACE_CONTROLLER = "namespace-controller"
SERVICE_ACCOUNT_CONTROLLER = "serviceaccount-controller"
GARBAGE_COLLECTOR_CONTROLLER = "garbage-collector-controller"
DAEMON_SET_CONTROLLER = "daemonset-controller"
JOB_CONTROLLER = "job-controller"
DEPLOYMENT_CONTROLLER = "deployment-controller"
REPLICA_SET_CONTROLLER = "replicaset-controller"
HORIZONTAL_POD_AUTOSCALER_CONTROLLER = "horizontal-pod-autoscaler-controller"
DISRUPTION_CONTROLLER = "disruption-controller"
STATEFUL_SET_CONTROLLER = "statefulset-controller"
CRON_JOB_CONTROLLER = "cronjob-controller"
CERTIFICATE_SIGNING_REQUEST_SIGNING_CONTROLLER = "certificatesigningrequest-signing-controller"
CERTIFICATE_SIGNING_REQUEST_APPROVING_CONTROLLER = "certificatesigningrequest-approving-controller"
CERTIFICATE_SIGNING_REQUEST_CLEANER_CONTROLLER = "certificatesigningrequest-cleaner-controller"
POD_CERTIFICATE_REQUEST_CLEANER_CONTROLLER = "podcertificaterequest-cleaner-controller"
TTL_CONTROLLER = "ttl-controller"
BOOTSTRAP_SIGNER_CONTROLLER = "bootstrap-signer-controller"
TOKEN_CLEANER_CONTROLLER = "token-cleaner-controller"
NODE_IPAM_CONTROLLER = "node-ipam-controller"
NODE_LIFECYCLE_CONTROLLER = "node-lifecycle-controller"
TAINT_EVICTION_CONTROLLER = "taint-eviction-controller"
PERSISTENT_VOLUME_BINDER_CONTROLLER = "persistentvolume-binder-controller"
PERSISTENT_VOLUME_ATTACH_DETACH_CONTROLLER = "persistentvolume-attach-detach-controller"
PERSISTENT_VOLUME_EXPANDER_CONTROLLER = "persistentvolume-expander-controller"
CLUSTER_ROLE_AGGREGATION_CONTROLLER = "clusterrole-aggregation-controller"
PERSISTENT_VOLUME_CLAIM_PROTECTION_CONTROLLER = "persistentvolumeclaim-protection-controller"
PERSISTENT_VOLUME_PROTECTION_CONTROLLER = "persistentvolume-protection-controller"
VOLUME_ATTRIBUTES_CLASS_PROTECTION_CONTROLLER = "volumeattributesclass-protection-controller"
TTL_AFTER_FINISHED_CONTROLLER = "ttl-after-finished-controller"
ROOT_CA_CERTIFICATE_PUBLISHER_CONTROLLER = "root-ca-certificate-publisher-controller"
KUBE_APISERVER_CLUSTER_TRUST_BUNDLE_PUBLISHER_CONTROLLER = "kube-apiserver-serving-clustertrustbundle-publisher-controller"
EPHEMERAL_VOLUME_CONTROLLER = "ephemeral-volume-controller"
STORAGE_VERSION_GARBAGE_COLLECTOR_CONTROLLER = "storageversion-garbage-collector-controller"
RESOURCE_CLAIM_CONTROLLER = "resourceclaim-controller"
DEVICE_TAINT_EVICTION_CONTROLLER = "device-taint-eviction-controller"
LEGACY_SERVICE_ACCOUNT_TOKEN_CLEANER_CONTROLLER = "legacy-serviceaccount-token-cleaner-controller"
VALIDATING_ADMISSION_POLICY_STATUS_CONTROLLER = "validatingadmissionpolicy-status-controller"
SERVICE_CIDR_CONTROLLER = "service-cidr-controller"
STORAGE_VERSION_MIGRATOR_CONTROLLER = "storage-version-migrator-controller"
SELINUX_WARNING_CONTROLLER = "selinux-warning-controller"

# k8s.io/cloud-provider/names: controllers that kube-controller-manager still
# registers (so their names and aliases stay valid) but never starts.
SERVICE_LB_CONTROLLER = "service-lb-controller"
NODE_ROUTE_CONTROLLER = "node-route-controller"
CLOUD_NODE_LIFECYCLE_CONTROLLER = "cloud-node-lifecycle-controller"
