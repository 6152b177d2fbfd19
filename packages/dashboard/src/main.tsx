import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.js';
import { installErrorReporting } from './reporting/report-client-error.js';
import './styles.css';

installErrorReporting();
const root = document.getElementById('root');
if (root === null) throw new Error('index.html lacks #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
