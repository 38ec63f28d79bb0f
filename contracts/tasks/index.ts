import "./deploy";
import "./owner";
