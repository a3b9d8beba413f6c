package export_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/procsdev/procs/compose/export/kube"
)

// TestKubernetesDecodesStrictly decodes every document of every project's
// manifests into the k8s.io/api type its kind names, refusing unknown and
// duplicate fields, as the API server does, and checks the names it must
// accept.
func TestKubernetesDecodesStrictly(t *testing.T) {
	scheme := runtime.NewScheme()
	require.NoError(t, corev1.AddToScheme(scheme))
	require.NoError(t, appsv1.AddToScheme(scheme))
	require.NoError(t, batchv1.AddToScheme(scheme))
	decoder := json.NewSerializerWithOptions(json.DefaultMetaFactory, scheme, scheme, json.SerializerOptions{Yaml: true, Strict: true})
	_, _, err := decoder.Decode([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\nbogus: 1\n"), nil, nil)
	require.Error(t, err, "the decoder refuses an unknown field")
	for name, file := range projects {
		t.Run(name, func(t *testing.T) {
			dir, _ := exportTo(t, load(t, file), kube.Format{})
			data, err := os.ReadFile(filepath.Join(dir, "kubernetes.yaml"))
			require.NoError(t, err)
			kinds := map[string]int{}
			for _, doc := range strings.Split(string(data), "\n---\n")[1:] {
				obj, gvk, err := decoder.Decode([]byte(doc), nil, nil)
				require.NoError(t, err, "document:\n%s", doc)
				kinds[gvk.Kind]++
				meta, ok := obj.(metav1.Object)
				require.True(t, ok)
				assert.Empty(t, validation.IsDNS1123Subdomain(meta.GetName()), "%s name %q", gvk.Kind, meta.GetName())
				if d, ok := obj.(*appsv1.Deployment); ok {
					assert.Equal(t, d.Spec.Selector.MatchLabels["app.kubernetes.io/name"], d.Spec.Template.Labels["app.kubernetes.io/name"])
					assert.NotEmpty(t, d.Spec.Template.Spec.Containers[0].Image)
				}
			}
			assert.NotZero(t, kinds["Deployment"], "kinds: %v", kinds)
		})
	}
}
