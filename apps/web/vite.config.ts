import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { markdownPlugin } from './build/markdown-plugin.ts';

export default defineConfig({
  plugins: [markdownPlugin(), react(), tailwindcss()],
  // The browser's build in dist/public (served); the prerenderer's in dist/ssr; the pages it renders in dist/pages.
  build: { outDir: 'dist/public', emptyOutDir: true, sourcemap: false },
  ssr: { noExternal: true },
  define: { __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()) },
  server: {
    proxy: { '/api': `http://127.0.0.1:${process.env.API_PORT ?? 3000}` },
  },
});
