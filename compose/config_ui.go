package compose

// UIConfig configures the web dashboard that `procs ui` opens.
type UIConfig struct {
	// Port is the port on 127.0.0.1 the dashboard listens on (0 or unset: a free one).
	Port int `json:"port,omitempty" jsonschema:"minimum=1,maximum=65535" jsonschema_description:"The port on 127.0.0.1 the dashboard listens on; a free one when unset."`
}

// uiKeys are the keys of ui:.
var uiKeys = []string{"port"}

// ui decodes the ui: mapping.
func (d *decoder) ui(v any) *UIConfig {
	path := []string{"ui"}
	m, ok := d.mapping(path, v, uiKeys)
	if !ok {
		return nil
	}
	return &UIConfig{Port: d.port(append(path, "port"), m["port"])}
}
