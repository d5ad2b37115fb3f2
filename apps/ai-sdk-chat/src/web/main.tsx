import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Chat } from './chat';
import './styles.css';

const root = document.getElementById('root');
if (root !== null) {
  createRoot(root).render(
    <StrictMode>
      <Chat />
    </StrictMode>,
  );
}
