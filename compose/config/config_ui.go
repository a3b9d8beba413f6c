package config

// UIConfig configures the web dashboard that `procs ui` opens.
type UIConfig struct {
	// Port is the port on 127.0.0.1 the dashboard listens on (0 or unset: a free one).
	Port int `json:"port,omitempty" jsonschema:"minimum=0,maximum=65535" jsonschema_description:"The port on 127.0.0.1 the dashboard listens on; a free one when 0 or unset."`
}

// uiKeys are the keys of ui:.
var uiKeys = jsonKeys[UIConfig]()

// ui decodes the ui: mapping.
func (d *decoder) ui(v any) *UIConfig {
	path := []string{"ui"}
	m, ok := d.mapping(path, v, uiKeys)
	if !ok {
		return nil
	}
	portPath := append(path, "port")
	port, ok := d.integer(portPath, m["port"], "a port")
	if ok && (port < 0 || port > 65535) {
		d.p.atValue(portPath, "%d is not a port: use a number from 1 to 65535, or 0 for a free one", port)
		port = 0
	}
	return &UIConfig{Port: port}
}
