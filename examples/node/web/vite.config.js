// The front-end's dev server. procs sets PORT from `port:` in procs.yaml,
// and API_URL from the process's env there, so every port is in one file.
import { defineConfig } from 'vite'

export default defineConfig({
  server: {
    host: '127.0.0.1',
    port: Number(process.env.PORT || 5173),
    strictPort: true,
    proxy: { '/api': process.env.API_URL || 'http://127.0.0.1:3000' },
  },
})
