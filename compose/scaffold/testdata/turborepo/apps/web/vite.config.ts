import { defineConfig } from 'vite'

export default defineConfig({
  server: {
    port: 3001,
    proxy: { '/api': 'http://localhost:4000' },
  },
})
