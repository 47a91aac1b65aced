import './styles/first.ts';
import '@mantine/notifications/styles.layer.css';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';

const root = document.getElementById('root')!;
// The frame index.html paints before this script runs (decision 0770): drawn again until the app's first render.
const shell = root.innerHTML;
createRoot(root).render(
  <StrictMode>
    <App shell={shell} />
  </StrictMode>,
);
